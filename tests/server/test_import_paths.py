"""``reviewer-app server import``: the paths it is given. A --rejects path is never a file
the import did not write (it was deleted, even the file being imported), a media line
naming a FIFO does not block it, and an input it could not resume (``/dev/stdin``, a
UTF-16 file) is refused with one sentence (exit code 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from reviewer_app.__main__ import main
from reviewer_app.server.feeds.bulk_import import read_state, rejects_path, state_path
from tests.support.intake import classifier, post

HERE = Path(__file__).resolve().parents[2]

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run_import(sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> Run:
    def run(file: Path, *extra: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(["server", "import", str(file), "--database-url", sqlite_url, *extra])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return path


def good_lines(n: int = 3) -> list[str]:
    return [json.dumps({"type": "post", **post(f"p-{k}")}) for k in range(n)]


def rejected_lines(path: Path) -> list[int]:
    return [json.loads(x)["line"] for x in path.read_text("utf-8").splitlines()]


def test_rejects_is_never_a_file_the_import_did_not_write(tmp_path: Path, run_import: Run) -> None:
    file = write(tmp_path / "in" / "self.jsonl", good_lines())
    before = file.read_bytes()
    code, _, err = run_import(file, "--rejects", str(file))
    assert code == 2 and "is the file being imported" in err, err
    assert file.read_bytes() == before
    other_name = tmp_path / "in" / "link.jsonl"
    other_name.symlink_to(file)
    assert run_import(file, "--rejects", str(other_name))[0] == 2
    state = state_path(file)
    assert run_import(file, "--rejects", str(state))[0] == 2
    assert file.read_bytes() == before
    # an unrelated file is left as it is, and the import refused
    notes = tmp_path / "in" / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    code, _, err = run_import(file, "--rejects", str(notes))
    assert code == 2 and "was not written by this import" in err, err
    assert notes.read_text("utf-8") == "my notes\n"
    # an empty one is used
    empty = tmp_path / "in" / "empty.jsonl"
    empty.touch()
    bad = write(tmp_path / "in" / "bad.jsonl", [*good_lines(), "{oops"])
    code, _, err = run_import(bad, "--rejects", str(empty))
    assert code == 1, err
    assert rejected_lines(empty) == [4]


def test_a_resumed_import_cuts_back_and_appends_to_its_own_rejects_file(
    tmp_path: Path, run_import: Run
) -> None:
    file = write(tmp_path / "in" / "feed.jsonl", [*good_lines(), "{oops"])
    rejects = tmp_path / "in" / "r.jsonl"
    assert run_import(file, "--rejects", str(rejects))[0] == 1
    assert rejected_lines(rejects) == [4]
    # a run killed after writing rejected lines but before its state: they are redone
    with rejects.open("a", encoding="utf-8") as out:
        out.write('{"line": 5, "code": "not_json", "reason": "left by a killed run"}\n')
    with file.open("a", encoding="utf-8") as out:
        out.write('{"type": "post", "external_id": \n')  # line 5
        out.write(json.dumps({"type": "signal", **classifier("p-1", 0.9)}) + "\n")
        out.write("[1]\n")  # line 7
    code, _, err = run_import(file, "--rejects", str(rejects))
    assert code == 1, err
    assert rejected_lines(rejects) == [4, 5, 7]  # each once, the earlier one kept
    state = read_state(state_path(file))
    assert state is not None and state.rejected == 3 and state.done
    assert not rejects_path(file).exists()
    # run again when finished: nothing read (exit code 0), the rejects file as it was
    code, out, _ = run_import(file, "--rejects", str(rejects))
    assert code == 0 and "Read 0 lines" in out
    assert rejected_lines(rejects) == [4, 5, 7]


def test_a_media_line_naming_a_fifo_is_rejected_not_waited_on(
    sqlite_url: str, tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    os.mkfifo(folder / "m.png")
    media = {"type": "media", "ref": "m", "file": "m.png", "mime_type": "image/png"}
    file = write(folder / "feed.jsonl", [json.dumps(media), *good_lines()])
    command = [sys.executable, "-m", "reviewer_app", "server", "import", str(file)]
    try:
        done = subprocess.run(
            [*command, "--database-url", sqlite_url],
            capture_output=True,
            text=True,
            cwd=HERE,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the import waited for ever on a FIFO named by a media line")
    assert done.returncode == 1, done.stderr
    found = [json.loads(x) for x in rejects_path(file).read_text("utf-8").splitlines()]
    assert [(r["line"], r["code"]) for r in found] == [(1, "media_unreadable")]
    assert "not a regular file" in found[0]["reason"]


def test_an_input_that_is_not_a_regular_file_is_refused(sqlite_url: str, tmp_path: Path) -> None:
    file = write(tmp_path / "in" / "ok.jsonl", good_lines())
    command = [sys.executable, "-m", "reviewer_app", "server", "import", "/dev/stdin"]
    beside = Path("/dev/stdin.import-state")
    existed = beside.exists()
    try:
        with file.open("rb") as stdin:
            done = subprocess.run(
                [*command, "--database-url", sqlite_url],
                stdin=stdin,
                capture_output=True,
                text=True,
                cwd=HERE,
                timeout=60,
            )
        assert done.returncode == 2, done.stdout
        assert "needs one, since it resumes from a state file" in done.stderr, done.stderr
        assert existed or not beside.exists()
    finally:
        if not existed:
            beside.unlink(missing_ok=True)
            Path("/dev/stdin.rejected.jsonl").unlink(missing_ok=True)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path, run_import: Run, encoding: str) -> None:
    file = tmp_path / "in" / "feed.jsonl"
    file.parent.mkdir()
    file.write_text("".join(x + "\n" for x in good_lines()), encoding=encoding)
    code, out, err = run_import(file)
    assert code == 2, out
    assert "must be UTF-8" in err and "run again" not in out, err
    assert not state_path(file).exists() and not rejects_path(file).exists()


def test_an_import_begun_by_an_earlier_release_resumes_with_its_rejects(
    tmp_path: Path, run_import: Run
) -> None:
    """A state written before it named its rejects file: the import it resumes wrote
    FILE.rejected.jsonl, which was refused as "not written by this import"."""
    file = write(tmp_path / "in" / "feed.jsonl", [*good_lines(), "{oops"])
    assert run_import(file)[0] == 1
    kept = json.loads(state_path(file).read_text("utf-8"))
    del kept["rejects_file"]  # as an earlier release wrote it
    kept["done"] = False
    state_path(file).write_text(json.dumps(kept), encoding="utf-8")
    with file.open("a", encoding="utf-8") as out:
        out.write("[1]\n")  # line 5
    code, _, err = run_import(file)
    assert code == 1, err
    assert rejected_lines(rejects_path(file)) == [4, 5]


@pytest.mark.skipif(not os.access("/dev/shm", os.W_OK), reason="no writable /dev/shm")
def test_a_file_in_dev_shm_is_a_file(run_import: Run) -> None:
    folder = Path("/dev/shm") / f"import-paths-{os.getpid()}"
    try:
        file = write(folder / "feed.jsonl", good_lines())
        code, _, err = run_import(file)
        assert code == 0, err
    finally:
        for path in folder.glob("*"):
            path.unlink()
        folder.rmdir()


def test_an_earlier_releases_state_never_adopts_another_rejects_file(
    tmp_path: Path, run_import: Run
) -> None:
    """Only the input's own FILE.rejected.jsonl is taken for the one an earlier release
    wrote; another file given as --rejects is still refused, never cut back."""
    file = write(tmp_path / "in" / "feed.jsonl", [*good_lines(), "{oops"])
    assert run_import(file)[0] == 1
    kept = json.loads(state_path(file).read_text("utf-8"))
    del kept["rejects_file"]
    kept["done"] = False
    state_path(file).write_text(json.dumps(kept), encoding="utf-8")
    notes = tmp_path / "in" / "notes.txt"
    notes.write_text("my notes, longer than the rejects\n" * 20, encoding="utf-8")
    before = notes.read_bytes()
    code, _, err = run_import(file, "--rejects", str(notes))
    assert code == 2 and "was not written by this import" in err, err
    assert notes.read_bytes() == before
