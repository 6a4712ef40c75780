"""``scopa.env.engine``, the fast round for one's own training loop, needs numpy alone:
PettingZoo and Gymnasium load only when their environments are asked for."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_the_engine_imports_and_plays_without_gymnasium_or_pettingzoo() -> None:
    script = textwrap.dedent(
        """
        import sys
        for name in ("gymnasium", "pettingzoo", "open_spiel", "pyspiel"):
            sys.modules[name] = None
        from scopa import Rules
        import random
        from scopa.env.engine import Match
        import scopa.env
        assert "scopa.env.aec" not in sys.modules
        match, rng = Match(Rules.preset("scopa"), seed=1), random.Random(1)
        while not match.is_over:
            match.play(rng.choice(match.legal_moves()))
        print("over", len(match.scores))
        try:
            scopa.env.env()
        except ImportError as error:
            print(error)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    over, missing = done.stdout.splitlines()
    assert over == "over 2"
    assert missing.startswith("the PettingZoo environment needs the learning environments'")
    assert missing.endswith("pip install 'scopa[rl]'")
