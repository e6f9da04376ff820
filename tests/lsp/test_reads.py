"""What a check asked the index decides when a closed file is checked again
(``ivycheck.lsp.reads``): the answers to those questions, or the whole index when the
check read it in a way the recorder does not know."""

from __future__ import annotations

from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import summarize
from ivycheck.lsp.reads import RecordingIndex, answers_key

API = """\
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)


def cos(x, /, *, out=None):
    return current_backend(x).cos(x, out=out)
"""
BACKEND = "def tan(x, /, *, out=None):\n    return x\n"
BACKEND_WITH_COS = BACKEND + "\n\ndef cos(x, /, *, out=None):\n    return x\n"


def _index(backend: str) -> ProjectIndex:
    return ProjectIndex.build(
        [
            summarize(API, "ivy/functional/ivy/a.py", "functional"),
            summarize(backend, "ivy/functional/backends/numpy/a.py", "backend:numpy"),
        ]
    )


def test_a_change_to_what_was_asked_changes_the_key_and_nothing_else_does() -> None:
    before, after = _index(BACKEND), _index(BACKEND_WITH_COS)
    asked_tan = RecordingIndex(before)
    assert set(asked_tan.implementations("tan")) == {"numpy"}
    asked_cos = RecordingIndex(before)
    assert asked_cos.implementations("cos") == {}
    assert before.digest() != after.digest()
    assert answers_key(before, asked_tan.reads) == answers_key(after, asked_tan.reads)
    assert answers_key(before, asked_cos.reads) != answers_key(after, asked_cos.reads)


def test_a_read_the_recorder_does_not_know_keys_on_the_whole_index() -> None:
    before, after = _index(BACKEND), _index(BACKEND_WITH_COS)
    recording = RecordingIndex(before)
    assert "tan" in recording.functional
    assert recording.reads.untracked
    assert answers_key(before, recording.reads) != answers_key(after, recording.reads)
    unknown = RecordingIndex(before)
    assert unknown._parts  # a private attribute: not a read this module can follow
    assert unknown.reads.untracked


def test_whether_a_text_was_summarized_clean_is_answered_and_recorded() -> None:
    """The engine asks it of every file it checks (``ProjectIndex.summarized_clean``):
    through the recorder the answer is the index's, and the file's summary counts as read."""
    index = _index(BACKEND)
    path = "ivy/functional/backends/numpy/a.py"
    for text, clean in ((BACKEND, True), (BACKEND_WITH_COS, False)):
        recording = RecordingIndex(index)
        assert index.summarized_clean(path, text) is clean
        assert recording.summarized_clean(path, text) is clean
        assert path in recording.reads.files
        assert not recording.reads.untracked
    broken = ProjectIndex.build([summarize("def (", path, "backend:numpy")])
    assert not broken.summarized_clean(path, "def (")


WRAPPER = """\
def handle_view(fn):
    def _handle_view(*args, **kwargs):
        return fn(*args, **kwargs)

    return _handle_view
"""
WRAPPER_ON_FAILURE = """\
def handle_view(fn):
    def _handle_view(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ValueError:
            raise

    return _handle_view
"""


def _index_with_wrapper(backend: str, wrapper: str) -> ProjectIndex:
    return ProjectIndex.build(
        [*_index(backend).files.values(), summarize(wrapper, "ivy/func_wrapper.py", "other")]
    )


def test_the_projects_own_wrappers_are_questions_the_recorder_follows() -> None:
    """Asked of nearly every file (a decorator's order, where ``out`` goes): a change to
    what a wrapper does changes the key, another file's change does not."""
    before = _index_with_wrapper(BACKEND, WRAPPER)
    recording = RecordingIndex(before)
    assert recording.decorator("handle_view") is not None
    recording.wrapper_takes("handle_view", "copy")
    recording.wrapper_order()
    recording.wrapper_paths()
    recording.part_of("ivy/func_wrapper.py")
    assert not recording.reads.untracked
    key = answers_key(before, recording.reads)
    assert answers_key(_index_with_wrapper(BACKEND_WITH_COS, WRAPPER), recording.reads) == key
    changed = _index_with_wrapper(BACKEND, WRAPPER_ON_FAILURE)
    assert changed.decorator("handle_view") != before.decorator("handle_view")
    assert answers_key(changed, recording.reads) != key
