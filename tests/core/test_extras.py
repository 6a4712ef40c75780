"""The lean install: the core and the command line need nothing but rich, and a command whose
extra is missing says which to install in one sentence, never a traceback.

Each check runs a fresh interpreter in which the extra's packages cannot be imported (their
names are None in ``sys.modules``, which makes ``import`` fail as if they were not installed),
so it holds whatever this environment has installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

BLOCK = textwrap.dedent(
    """
    import sys
    for name in {blocked!r}:
        sys.modules[name] = None
    """
)


def run_blocked(blocked: list[str], code: str) -> subprocess.CompletedProcess[str]:
    script = BLOCK.format(blocked=blocked) + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_core_and_the_command_line_import_nothing_outside_the_standard_library_but_rich(
) -> None:
    done = run_blocked(
        [],
        """
        import scopa, scopa.players, scopa.tournament, scopa.review, scopa.terminal, scopa.cli
        import scopa.text, scopa.extras
        import json
        # Names with a leading underscore are the interpreter's own (__main__, a
        # setuptools hook), and ``<hash>__mypyc`` is the compiled core's shared library:
        # none is a package scopa imports.
        outside = sorted(
            name for name in {module.partition(".")[0] for module in sys.modules}
            if name not in sys.stdlib_module_names and not name.startswith("_")
            and not name.endswith("__mypyc")
        )
        print(json.dumps(outside))
        """,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["rich", "scopa"]


ROOM = ["fastapi", "uvicorn", "sqlalchemy", "redis", "websockets", "httpx"]


@pytest.mark.parametrize(
    ("blocked", "argv", "extra"),
    [
        (ROOM, ["serve", "--port", "1"], "room"),
        (ROOM, ["bots", "--redis", "redis://127.0.0.1:1"], "room"),
        (["numpy"], ["tournament", "learned", "random", "--matches", "1"], "learn"),
        (["open_spiel", "pyspiel"], ["tournament", "openspiel-ismcts", "random"], "rl"),
        (["matplotlib"], ["tournament", "random", "random", "--plot", "x.png"], "plot"),
    ],
    ids=["serve", "bots", "learned", "ismcts", "plot"],
)
def test_a_command_whose_extra_is_missing_names_it_in_one_sentence(
    blocked: list[str], argv: list[str], extra: str
) -> None:
    done = run_blocked(blocked, f"from scopa.cli import main\nsys.exit(main({argv!r}))")
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("scopa: error: ")
    assert lines[0].endswith(f"pip install 'scopa[{extra}]'")
    assert "is not installed" in lines[0]


def test_a_missing_module_of_scopa_itself_is_a_defect_shown_in_full() -> None:
    from scopa.extras import MissingExtraError, missing_extra

    ours = ModuleNotFoundError("No module named 'scopa.nowhere'", name="scopa.nowhere")
    theirs = ModuleNotFoundError("No module named 'fastapi'", name="fastapi")
    assert missing_extra(ours, "room", "scopa serve") is ours
    made = missing_extra(theirs, "room", "scopa serve")
    assert isinstance(made, MissingExtraError) and made.extra == "room"
