"""Charts of tournament results, drawn with matplotlib (the optional ``plot`` extra).

matplotlib is imported inside the function, so the library and the rest of the
command line never need it. The figure is built without pyplot, so no GUI
backend or global state is involved and it works on a headless machine.
"""

from __future__ import annotations

from .tournament import Tournament


def plot_win_rates(result: Tournament, path: str) -> None:
    """Save a bar chart of both levels' win rates with 95% paired error bars to ``path``."""
    from matplotlib.figure import Figure

    low, high = result.paired_interval
    rate = result.win_rate
    # The second level wins exactly the games the first loses, so its interval mirrors.
    rates = [rate, 1 - rate]
    below = [rate - low, high - rate]
    above = [high - rate, rate - low]
    names = [result.first, result.second]
    figure = Figure(figsize=(6, 4.5), layout="constrained")
    axes = figure.subplots()
    bars = axes.bar(names, rates, yerr=[below, above], capsize=8, color=["#2a6f97", "#c8553d"])
    for bar, value in zip(bars, rates, strict=True):
        # At the foot of the bar, clear of the error bar at its top.
        axes.text(
            bar.get_x() + bar.get_width() / 2,
            0.03,
            f"{value:.1%}",
            ha="center",
            color="white",
            fontweight="bold",
        )
    even = result.expected_win_rate
    for bar, value in zip(bars, (even, 1 - even), strict=True):
        left = bar.get_x()
        axes.hlines(value, left, left + bar.get_width(), colors="grey", linestyles="--")
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of matches won")
    rules = result.rules
    axes.set_title(
        f"{result.first} vs {result.second}: {rules.name}, {rules.players} players\n"
        f"{result.seeds} seeds x {rules.sides} = {result.games} matches, "
        "95% CI paired by seed; dashed: equal strength",
        fontsize=10,
    )
    figure.savefig(path, dpi=120)
