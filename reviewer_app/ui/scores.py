"""Classifier scores: per model a labelled bar with its threshold marked, the score as a
number and the model version; a score over its threshold stands out."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QWidget

from reviewer_app.protocol import ClassifierScore

from .i18n import translate
from .plain import ElidedLabel, isolate, label, named, set_text, tooltip
from .theme import Tone, TypeRole, plain_type, set_colour, set_type
from .words import code_words, decimal

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
        named(self, "scores", translate("Scores", "Classifier scores"))
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setVerticalSpacing(2)
        self.grid.setColumnStretch(0, 1)
        self.rows: list[tuple[ElidedLabel, ScoreBar, QLabel, ElidedLabel]] = []

    def show_scores(self, scores: list[ClassifierScore]) -> None:
        """One row per model; rows are reused from post to post (building widgets for every
        post was a visible share of the keypress)."""
        if not scores:
            self._set_rows(1)
            name, bar, figure, version = self.rows[0]
            set_text(name, translate("Scores", "No classifier scores for this post."))
            for widget in (bar, figure, version):
                widget.hide()
            return
        ordered = sorted(scores, key=lambda s: -s.score)
        self._set_rows(len(ordered))
        for (name, bar, figure, version), score in zip(
            self.rows[: len(ordered)], ordered, strict=True
        ):
            over = score.score >= score.threshold
            set_text(name, f"{code_words(score.label)} ({isolate(score.model)})")
            set_text(
                figure,
                f"{decimal(score.score, 2)} / {decimal(score.threshold, 2)}"
                + ("  " + translate("Scores", "OVER") if over else ""),
            )
            set_text(version, f"v{isolate(score.model_version)}")
            bar.score, bar.threshold = score.score, score.threshold
            bar.update()
            if figure.property("over") != over:  # a style sheet is costly to apply
                if over:
                    set_type(name, TypeRole.strong)
                else:
                    plain_type(name)
                set_colour(figure, Tone.over if over else None)
                figure.setProperty("over", over)
            words = (
                translate(
                    "Scores",
                    "{label} by {model} {version}: score {score}, threshold {threshold}, "
                    "over the threshold",
                )
                if over
                else translate(
                    "Scores",
                    "{label} by {model} {version}: score {score}, threshold {threshold}, "
                    "under the threshold",
                )
            ).format(
                label=code_words(score.label),
                model=isolate(score.model),
                version=isolate(score.model_version),
                score=decimal(score.score, 3),
                threshold=decimal(score.threshold, 3),
            )
            bar.setAccessibleName(words)
            bar.setToolTip(tooltip(words))
            for widget in (bar, figure, version):
                widget.show()

    def _set_rows(self, count: int) -> None:
        """Two lines a score: its label and model over the whole width, then the bar, the
        figures and the version (one squeezed line elided the names)."""
        while len(self.rows) < count:
            index = len(self.rows)
            row = (ElidedLabel(), ScoreBar(0.0, 1.0), label(wrap=False), ElidedLabel())
            self.grid.addWidget(row[0], 2 * index, 0, 1, 3)
            for column, widget in enumerate(row[1:]):
                self.grid.addWidget(widget, 2 * index + 1, column)
            self.rows.append(row)
        for index, row in enumerate(self.rows):
            for widget in row:
                widget.setVisible(index < count)
