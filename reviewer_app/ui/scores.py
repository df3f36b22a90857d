"""Classifier scores: per model a labelled bar with its threshold marked, the score as a
number and the model version; a score over its threshold stands out."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget

from reviewer_app.protocol import ClassifierScore

from .plain import label, tooltip

OVER = QColor("#c62828")
UNDER = QColor("#5c7cfa")


class ScoreBar(QWidget):
    def __init__(self, score: float, threshold: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.score = score
        self.threshold = threshold
        self.setMinimumSize(QSize(120, 16))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    @property
    def over(self) -> bool:
        return self.score >= self.threshold

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = QRectF(self.rect()).adjusted(0, 3, -1, -3)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.palette().alternateBase())
        painter.drawRect(rect)
        painter.setBrush(OVER if self.over else UNDER)
        painter.drawRect(QRectF(rect.left(), rect.top(), rect.width() * self.score, rect.height()))
        x = rect.left() + rect.width() * self.threshold
        painter.setPen(QPen(self.palette().text().color(), 2))
        painter.drawLine(int(x), 0, int(x), self.height())
        painter.end()


class ScoresPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Classifier scores")
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.rows: list[tuple[QWidget, ...]] = []

    def show_scores(self, scores: list[ClassifierScore]) -> None:
        for row in self.rows:
            for widget in row:
                widget.deleteLater()
        self.rows = []
        if not scores:
            empty = label("No classifier scores for this post.")
            self.grid.addWidget(empty, 0, 0, 1, 4)
            self.rows.append((empty,))
            return
        for index, score in enumerate(sorted(scores, key=lambda s: -s.score)):
            over = score.score >= score.threshold
            name = label(f"{score.label} ({score.model})", wrap=False)
            bar = ScoreBar(score.score, score.threshold)
            figure = label(
                f"{score.score:.2f} / {score.threshold:.2f}" + ("  OVER" if over else ""),
                wrap=False,
            )
            version = label(f"v{score.model_version}", wrap=False)
            font = figure.font()
            font.setBold(over)
            figure.setFont(font)
            name.setFont(font)
            if over:
                figure.setStyleSheet(f"color: {OVER.name()}")
            words = (
                f"{score.label} by {score.model} {score.model_version}: score {score.score:.3f}, "
                f"threshold {score.threshold:.3f}, {'over' if over else 'under'} the threshold"
            )
            bar.setAccessibleName(words)
            bar.setToolTip(tooltip(words))
            for column, widget in enumerate((name, bar, figure, version)):
                self.grid.addWidget(widget, index, column)
            self.rows.append((name, bar, figure, version))
