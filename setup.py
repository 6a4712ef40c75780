"""Build hook: the rules core compiled to C with mypyc where the machine can build it.

The core is plain typed Python and runs as it is; compiled, the same modules run
playouts two to three times faster (benchmarks/engine.py), which is what searches,
tournaments and learning want. So a wheel (``pip install .``) carries the compiled
core whenever a C compiler and the Python headers are there, and the pure modules
otherwise: any failure to build falls back to them, with a warning, since both
behave the same (the test suite runs against both). ``scopa --version`` says which
one runs.

An editable install (``pip install -e .``) stays pure, so it always runs the sources
as they are edited. ``SCOPA_COMPILE=1`` makes a failure to compile an error instead
of a fallback (``scripts/build_compiled.sh`` uses it); ``SCOPA_COMPILE=0`` builds pure.
"""

import glob
import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# Rules and View stay pure: they are built from outside data, and there a wrong type should
# get the ValueError that names the field, not the TypeError a compiled signature raises.
# The playout policy (players/simulation) compiles with the core: it is the master's inner
# loop, and takes only masks and the round state.
CORE = ["cards", "moves", "errors", "capture", "scoring", "round", "game", "players/simulation"]

choice = os.environ.get("SCOPA_COMPILE", "")
required = choice == "1"
editable = "editable_wheel" in sys.argv or "develop" in sys.argv


class CoreBuildExt(build_ext):
    """Build the compiled core, or leave the pure modules alone if that fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, no headers, a compiler error: all the same
            if required:
                raise
            # The compiled modules share one library: a part built alone would not import.
            for extension in self.extensions:
                built = self.get_ext_fullpath(extension.name)
                if os.path.exists(built):
                    os.remove(built)
            print(
                f"warning: the compiled core could not be built ({error}); "
                "scopa installs its pure core, which behaves the same, only slower",
                file=sys.stderr,
            )


class CoreBuildPy(build_py):
    """Copy the sources, and drop compiled modules an earlier build left in the build tree:
    a pure build must not ship them (they would shadow the sources they were built from)."""

    def run(self) -> None:
        super().run()
        if not ext_modules:
            for stale in glob.glob(os.path.join(self.build_lib, "**", "*.so"), recursive=True):
                os.remove(stale)


ext_modules = []
if choice != "0" and not editable:
    try:
        from mypyc.build import mypycify

        ext_modules = mypycify([f"src/scopa/{name}.py" for name in CORE], opt_level="3")
    except (Exception, SystemExit) as error:  # mypy missing or refusing the sources: pure
        if required:
            raise
        print(f"warning: mypyc is unavailable ({error}); scopa installs its pure core", file=sys.stderr)

setup(ext_modules=ext_modules, cmdclass={"build_ext": CoreBuildExt, "build_py": CoreBuildPy})
