"""Build hook: with SCOPA_COMPILE=1, compile the rules core to C with mypyc.

The core is plain typed Python and runs as it is; compiled, the same modules run
playouts about 1.7 times faster (benchmarks/engine.py), which is what searches and
tournaments want. The pure modules stay the default so an editable install always
runs the source you edit. ``bash scripts/build_compiled.sh`` makes a compiled venv.
"""

import os

from setuptools import setup

# Rules and View stay pure: they are built from outside data, and there a wrong type should
# get the ValueError that names the field, not the TypeError a compiled signature raises.
CORE = ["cards", "moves", "errors", "capture", "scoring", "round", "game"]

ext_modules = []
if os.environ.get("SCOPA_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify([f"src/scopa/{name}.py" for name in CORE], opt_level="3")

setup(ext_modules=ext_modules)
