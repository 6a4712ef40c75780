"""The ``scopa`` command: presets, deals, recorded matches, tournaments and a game to play.

    scopa presets
    scopa deal --preset escoba --players 4 --seed 3 --deck-look spanish
    scopa record --preset scopa --seed 5 -o match.json
    scopa replay match.json --deck-look italian
    scopa tournament expert greedy --preset escoba --matches 200 --jobs 2
    scopa play --preset escoba --players 4 --opponents expert --deck italian

An adapter over the library: it parses arguments, reads and writes JSON and
prints with rich; every rule lives in the core. Bad input prints one line to
stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import json
import os
import platform
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from . import __version__, tournament
from .extras import MissingExtraError, missing_extra
from .game import Game
from .looks import LOOKS, cards_label
from .players import make_player
from .round import core
from .rules import PRESETS, Rules, preset_names
from .text import breakdown, hand_text, play_text, rules_summary, side_name
from .view import Play

if TYPE_CHECKING:
    from .server.feature import Part

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the command line or a file: shown as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line and do not exit the process."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


# -- rule overrides -------------------------------------------------------------------

_RULE_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _parse_int(name: str, text: str) -> int:
    try:
        return int(text, 10)
    except ValueError:
        raise UsageError(f"--rule {name}: expected a whole number, got {text!r}") from None


def parse_rule_value(name: str, text: str) -> Any:
    """Read the value of rule ``name`` from its command-line text, by the field's type.

    >>> parse_rule_value("target", "21"), parse_rule_value("napola", "true")
    (21, True)
    >>> parse_rule_value("dealer_bonus", "15:1,20:2"), parse_rule_value("teams", "auto")
    (((15, 1), (20, 2)), None)
    """
    field = _RULE_FIELDS.get(name)
    if field is None:
        raise UsageError(f"unknown rule {name!r}; the rules are: {', '.join(sorted(_RULE_FIELDS))}")
    text = text.strip()
    default = field.default
    if isinstance(default, bool):
        lowered = text.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise UsageError(f"--rule {name}: expected true or false, got {text!r}")
    if name == "teams":
        return None if text.lower() in ("auto", "none", "") else _parse_int(name, text)
    if isinstance(default, int):
        return _parse_int(name, text)
    if name == "dealer_bonus":
        if text.lower() in ("", "none", "-"):
            return ()
        pairs = []
        for part in text.split(","):
            total, sep, sweeps = part.partition(":")
            if not sep:
                raise UsageError(
                    f"--rule dealer_bonus: expected total:sweeps pairs such as 15:1,20:2, "
                    f"got {text!r}"
                )
            pairs.append((_parse_int(name, total.strip()), _parse_int(name, sweeps.strip())))
        return tuple(pairs)
    return text


def rule_text(name: str, value: Any) -> str:
    """A rule value written the way ``--rule`` reads it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if name == "teams" and value is None:
        return "auto"
    if name == "dealer_bonus":
        return ",".join(f"{total}:{sweeps}" for total, sweeps in value) or "none"
    return str(value)


def build_rules(args: argparse.Namespace) -> Rules:
    """The preset named on the command line with ``--players``, ``--teams`` and ``--rule``."""
    overrides: dict[str, Any] = {}
    if args.players is not None:
        overrides["players"] = args.players
    if args.teams is not None:
        overrides["teams"] = args.teams
    for item in args.rule:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--rule expects field=value, such as target=21; got {item!r}")
        if name in overrides:
            raise UsageError(f"rule {name!r} is given more than once")
        overrides[name] = parse_rule_value(name, text)
    if args.preset not in PRESETS:
        raise UsageError(f"unknown preset {args.preset!r}; the presets are: {', '.join(PRESETS)}")
    try:
        return Rules.preset(args.preset, **overrides)
    except ValueError as error:
        raise UsageError(f"bad rules: {error}") from None


# -- showing things --------------------------------------------------------------------


def _console(stderr: bool = False) -> Console:
    # Made per call, so that output goes to whatever sys.stdout is at that moment. A pipe or a
    # file has no width of its own: give it room for the widest table rather than rich's 80.
    console = Console(stderr=stderr, highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 120
    return console


def cmd_presets(args: argparse.Namespace) -> int:
    console = _console()
    table = Table(title="Rule presets (scopa and escoba are the defaults)", box=box.SIMPLE_HEAD)
    table.add_column("rule", style="bold", no_wrap=True)
    names = preset_names()
    for name in names:
        # Long names break at their hyphen, so the table fits 80 columns.
        table.add_column(name.replace("-", "-\n"), overflow="fold")
    for field in dataclasses.fields(Rules):
        if field.name in ("name", "description"):
            continue
        table.add_row(
            field.name, *(rule_text(field.name, getattr(PRESETS[n], field.name)) for n in names)
        )
    console.print(table)
    for name in names:
        console.print(f"[bold]{name}[/bold]: {PRESETS[name].description}", soft_wrap=True)
    console.print(
        "Override any rule with --rule field=value, such as --rule target=21 --rule napola=true.",
        soft_wrap=True,
    )
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    rules = build_rules(args)
    game = _new_game(rules, args.seed)
    look = args.deck_look
    console = _console()
    console.print(f"[bold]{rules_summary(rules)}[/bold], seed {game.seed}", soft_wrap=True)
    hands = Table(title="First deal", box=box.SIMPLE_HEAD)
    hands.add_column("seat")
    hands.add_column("side")
    hands.add_column("role")
    hands.add_column("hand")
    for seat in range(rules.players):
        role = []
        if seat == game.dealer:
            role.append("dealer")
        if seat == game.leader:
            role.append("leads")
        hands.add_row(
            str(seat),
            str(rules.side_of(seat)),
            ", ".join(role),
            hand_text(game.hand(seat), look),
        )
    console.print(hands)
    view = game.view(None)
    console.print(f"Table: {cards_label(game.table, look)}", soft_wrap=True)
    console.print(
        f"Dealer: seat {game.dealer}   Leader: seat {game.leader}   Stock: {game.stock_size} cards",
        soft_wrap=True,
    )
    if view.dealer_bonus:
        side = rules.side_of(game.dealer)
        console.print(
            f"Dealer bonus: {side_name(rules, side)} takes {cards_label(view.dealer_bonus, look)} "
            f"and scores {game.sweeps[side]} sweep(s)",
            soft_wrap=True,
        )
    if rules.sides != rules.players:
        teams = "; ".join(side_name(rules, side) for side in range(rules.sides))
        console.print(f"Teams: {teams}", soft_wrap=True)
    return 0


def _new_game(rules: Rules, seed: int | None) -> Game:
    try:
        return Game.new(rules, seed=seed)
    except ValueError as error:
        raise UsageError(str(error)) from None


def cmd_record(args: argparse.Namespace) -> int:
    rules = build_rules(args)
    game = _new_game(rules, args.seed)
    choose = random.Random(game.seed).choice
    while not game.is_over:
        game.play(choose(game.legal_moves()))
    text = json.dumps(game.record(), indent=1) + "\n"
    winner = game.winner
    assert winner is not None
    summary = (
        f"{rules_summary(rules)}, seed {game.seed}: {len(game.round_scores)} rounds, "
        f"{len(game.moves)} moves, {side_name(rules, winner)} wins "
        f"{'-'.join(str(s) for s in game.scores)}"
    )
    if args.output in (None, "-"):
        sys.stdout.write(text)
        _console(stderr=True).print(summary, soft_wrap=True)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror or error}") from None
        _console().print(f"Wrote {args.output}: {summary}", soft_wrap=True)
    return 0


def read_record(path: str) -> dict[str, Any]:
    """The JSON record in ``path`` (``-``: standard input)."""
    where = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {where}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {where}: it is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(
            f"{where} is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise UsageError(f"{where} is not a match record: its JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise UsageError(f"{where} is not a match record: expected a JSON object")
    return data


def replay_record(data: dict[str, Any], where: str) -> Game:
    """Replay a record, turning any complaint about it into a :class:`UsageError`."""
    try:
        game = Game.replay(data)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        message = str(error) or type(error).__name__
        message = message.removeprefix("record: ")
        raise UsageError(f"bad record in {where}: {message}") from None
    for key, actual in (("scores", game.scores), ("winner", game.winner)):
        if key in data and data[key] != actual:
            raise UsageError(
                f"bad record in {where}: it says {key} {data[key]!r} but its moves give {actual!r}"
            )
    return game


def _plays_by_round(game: Game) -> list[list[Play]]:
    """Each round's plays, found by playing the game's moves again on a fresh game."""
    rounds: list[list[Play]] = [[] for _ in range(game.round_number + 1)]
    deck = game.record()["deck"]
    again = Game.new(game.rules, seed=game.seed, deck=deck)
    for move in game.moves:
        number = again.round_number
        again.play(move)
        assert again.last_move is not None
        rounds[number].append(again.last_move)
    return rounds


def cmd_replay(args: argparse.Namespace) -> int:
    data = read_record(args.file)
    where = "standard input" if args.file == "-" else args.file
    game = replay_record(data, where)
    rules = game.rules
    look = args.deck_look
    console = _console()
    console.print(
        f"[bold]{rules_summary(rules)}[/bold], seed {game.seed}, {len(game.moves)} moves",
        soft_wrap=True,
    )
    plays = _plays_by_round(game) if args.moves else []
    totals = [0] * rules.sides
    for number, scores in enumerate(game.round_scores):
        for side, score in enumerate(scores):
            totals[side] += score.total
        console.print()
        console.print(f"[bold]Round {number + 1}[/bold]")
        if args.moves:
            for play in plays[number]:
                console.print(f"  {play_text(play, look)}", soft_wrap=True)
        console.print(breakdown(rules, scores, totals, look))
    console.print()
    if game.winner is not None:
        resigned = "" if game.resigned is None else f" (seat {game.resigned} resigned)"
        console.print(
            f"[bold]Winner: {side_name(rules, game.winner)}[/bold], "
            f"{'-'.join(str(s) for s in game.scores)}{resigned}",
            soft_wrap=True,
        )
    else:
        console.print(
            f"The match is not over: round {game.round_number + 1} is being played, "
            f"scores {'-'.join(str(s) for s in game.scores)}",
            soft_wrap=True,
        )
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    # Imported here: the card room's packages (the room extra) load only for this command.
    try:
        from .server.run import serve, settings_from
    except ImportError as error:
        raise missing_extra(error, "room", "scopa serve") from None

    try:
        settings = settings_from(
            args.db,
            args.bot_delay,
            args.turn_timeout,
            redis=args.redis,
            name=args.name,
            bot_queue=args.bot_queue,
            lobby_writes=args.lobby_writes,
            lobby_reads=args.lobby_reads,
            provisional_matches=args.provisional_matches,
            login_per_address=args.login_per_address,
            login_per_account=args.login_per_account,
            register_per_address=args.register_per_address,
            review_workers=args.review_workers,
            review_queue=args.review_queue,
            review_per_address=args.review_per_address,
            review_per_account=args.review_per_account,
            table_sockets_per_address=args.table_sockets_per_address,
            sections=tuple(section for part in _room_parts()
                           if (section := part.section(args)) is not None),
        )
    except ValueError as error:
        raise UsageError(str(error)) from None
    return serve(settings, args.host, args.port)


def cmd_bots(args: argparse.Namespace) -> int:
    # Imported here, like the server: only this command needs redis.
    try:
        from .server.cluster.workers import work, worker_name
    except ImportError as error:
        raise missing_extra(error, "room", "scopa bots") from None

    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"--redis must be a redis:// URL; got {args.redis!r}")
    try:
        return work(args.redis, args.name or worker_name())
    except KeyboardInterrupt:
        return 0


def cmd_moderate(args: argparse.Namespace) -> int:
    # Imported here, like the server: the card room's packages load only for this command.
    try:
        from .server.accounts.moderation import ModerationError
        from .server.chat import moderate
    except ImportError as error:
        raise missing_extra(error, "room", "scopa moderate") from None

    db = args.db or "sqlite:///scopa.db"
    if args.moderate in ("links", "mark", "unmark", "acts", "suspects"):
        return _fair_play(args, db)
    if args.moderate == "reports":
        found = moderate.reports(db)
        if args.json:
            print(json.dumps(found, ensure_ascii=False, indent=1))
            return 0
        if not found:
            print("no reports")
        for report in found:
            said = report["message"]
            who = said["name"] or f"spectator {said['spectator']}"
            words = said.get("text") or f"[{said.get('phrase')}]"
            print(f"report {report['id']} at {report['at']}: table {report['table']}, match "
                  f"{report['match']}, version {report['version']}, by seat "
                  f"{report['reporter_seat']}")
            for line in report["context"]:
                mark = ">" if line["id"] == said["id"] else " "
                speaker = line["name"] or f"spectator {line['spectator']}"
                print(f"  {mark} {speaker}: {line.get('text') or '[' + line['phrase'] + ']'}")
            print(f"  reported: {who}: {words}")
        return 0
    try:
        named = moderate.sanction(db, args.name, args.moderate, args.reason)
    except ModerationError as error:
        raise UsageError(str(error)) from None
    done = "silenced (quick phrases only)" if args.moderate == "silence" else "banned"
    print(f"{named} is {done}: {' '.join(args.reason.split())}")
    return 0


def _suspects(found: Sequence[Any], as_json: bool) -> int:
    """Print ``scopa moderate suspects``: each account's figure, its peers' and the evidence."""
    if as_json:
        print(json.dumps([dataclasses.asdict(suspect) for suspect in found], default=str,
                         ensure_ascii=False, indent=1))
        return 0
    if not found:
        print("no suspects: no account is far above its peers' agreement with the master")
    for suspect in found:
        figure = suspect.figure
        print(f"{figure.name} (account {figure.account_id}, rated {figure.rating}): "
              f"{figure.agreement:.0%} of {figure.positions} positions as the master would, "
              f"{suspect.peers} peers at {suspect.reference:.0%} (spread {suspect.spread:.0%}), "
              f"{suspect.sigmas:.1f} sigmas above; its other moves cost {figure.miss_cost:.3f}")
        for match in figure.matches:
            moves = ", ".join(f"{e['move']}{'' if e['matched'] else ' (not)'}"
                              for e in match.evidence)
            print(f"  match {match.match_id}: {match.matched}/{match.positions}: moves {moves}")
    return 0


def _system_user() -> str:
    """Who runs this command, as the system names them: the moderators' log's default."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


def _fair_play(args: argparse.Namespace, db: str) -> int:
    """``scopa moderate links``, ``mark``, ``unmark`` and ``acts`` (issue 34, items C and E)."""
    from .server.accounts import moderation

    by = args.by if getattr(args, "by", None) else _system_user()
    try:
        if args.moderate == "links":
            named, found = moderation.links(db, args.name)
            if args.json:
                print(json.dumps({"account": named, "links": [dataclasses.asdict(link)
                                                              for link in found]},
                                 default=str, ensure_ascii=False, indent=1))
                return 0
            if not found:
                print(f"{named} shares no address and no browser with another account "
                      "in the last 30 days")
            for link in found:
                who = "a deleted account" if link.deleted else link.name
                print(f"{who} (account {link.account_id}):")
                for shared in link.shared:
                    print(f"  same {shared.what}, seen {shared.first_at:%Y-%m-%d %H:%M} to "
                          f"{shared.last_at:%Y-%m-%d %H:%M} UTC")
                for match in link.rated:
                    print(f"  rated match {match.match_id} ({match.pool}) at "
                          f"{match.at:%Y-%m-%d %H:%M}: {named} {match.mine}, {who} "
                          f"{match.theirs}")
                if not link.rated:
                    print("  no rated match together")
            return 0
        if args.moderate == "suspects":
            return _suspects(moderation.suspects(db), args.json)
        if args.moderate == "acts":
            for act in moderation.acts(db, args.name):
                print(f"{act.at:%Y-%m-%d %H:%M} UTC: {act.moderator} {act.act}ed {act.name} "
                      f"({act.kind}): {act.reason}")
            return 0
        if args.moderate == "mark":
            named, refunds = moderation.mark(db, args.name, args.kind, args.reason, by)
            print(f"{named} is marked ({args.kind}): off the leaderboards and the podiums, "
                  "and its matches are casual")
            given = "given back"
        else:
            named, refunds = moderation.unmark(db, args.name, args.reason, by)
            print(f"{named} is unmarked")
            given = "taken back"
        for refund in refunds:
            print(f"  {refund.name}: {refund.mu:.2f} mu {given} ({refund.pool}, match "
                  f"{refund.match_id})")
    except moderation.ModerationError as error:
        raise UsageError(str(error)) from None
    return 0


def _percent(value: float) -> str:
    return f"{value:.1%}"


def _tournament_table(result: tournament.Tournament) -> Table:
    """One row per level: matches won, win rate and interval, points, sweeps, time per move."""
    low, high = result.paired_interval
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("level", no_wrap=True)
    for heading in ("sides", "won", "win rate", "95% CI (paired)", "points/round"):
        table.add_column(heading, justify="right", no_wrap=True)
    for heading in ("sweeps/round", "ms/move", "worst ms"):
        table.add_column(heading, justify="right", no_wrap=True)
    first, second = result.level_stats()
    # The second level wins exactly the matches the first loses: its interval mirrors.
    intervals = ((low, high), (1 - high, 1 - low))
    for stats, (lo, hi) in zip((first, second), intervals, strict=True):
        table.add_row(
            f"[bold]{stats.level}[/bold]",
            str(stats.sides),
            f"{stats.wins} / {result.games}",
            _percent(stats.wins / result.games),
            f"{lo * 100:.1f} - {hi * 100:.1f}%",
            f"{stats.points_per_round:.2f}",
            f"{stats.sweeps_per_round:.2f}",
            f"{stats.mean_time * 1000:.2f}",
            f"{stats.worst_time * 1000:.1f}",
        )
    table.caption = "points and sweeps: per round and side; ms: time to choose a move"
    return table


def cmd_tournament(args: argparse.Namespace) -> int:
    rules = build_rules(args)
    for level in (args.first, args.second):
        try:
            tournament.make_bot(level, rules=rules)
        except ValueError as error:
            raise UsageError(str(error)) from None
    if args.matches < 1:
        raise UsageError(f"--matches must be 1 or more; got {args.matches}")
    if args.jobs < 1:
        raise UsageError(f"--jobs must be 1 or more; got {args.jobs}")
    if args.plot:
        # Checked before the matches are played, not after.
        try:
            import matplotlib  # noqa: F401
        except ImportError as error:
            raise missing_extra(error, "plot", "--plot") from None
    games = args.matches * rules.sides
    console = _console()
    console.print(
        f"[bold]{args.first} vs {args.second}[/bold]: {rules_summary(rules)}", soft_wrap=True
    )
    console.print(
        f"Paired deals: {args.matches} seeds x {rules.sides} = {games} matches, each seed "
        f"played with {args.first} at each side in turn and {args.second} at the others; "
        f"seed {args.seed}, {args.jobs} job{'s' if args.jobs > 1 else ''}",
        soft_wrap=True,
    )
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("matches"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    progress_console = _console(stderr=True)
    with Progress(
        *columns, console=progress_console, disable=not progress_console.is_terminal
    ) as progress:
        task = progress.add_task(f"{args.first} vs {args.second}", total=games)
        result = tournament.run(
            args.first,
            args.second,
            rules,
            seeds=args.matches,
            seed=args.seed,
            jobs=args.jobs,
            progress=lambda done: progress.advance(task, done),
        )
    console.print(_tournament_table(result))
    low, high = result.paired_interval
    wilson_low, wilson_high = result.wilson_interval
    console.print(
        f"[bold]{args.first} wins {_percent(result.win_rate)} of {games} matches[/bold] "
        f"(95% CI {_percent(low)} - {_percent(high)}, paired: each seed's {rules.sides} "
        f"matches are one unit; Wilson over single matches {_percent(wilson_low)} - "
        f"{_percent(wilson_high)}; equal strength would give "
        f"{_percent(result.expected_win_rate)})",
        soft_wrap=True,
    )
    by_side = ", ".join(
        f"{_percent(rate)} at side {side}" for side, rate in enumerate(result.win_rate_by_side())
    )
    console.print(f"{args.first} by side: {by_side}", soft_wrap=True)
    if args.json:
        _write_text(args.json, json.dumps(result.to_dict(), indent=1) + "\n")
        console.print(f"Wrote {args.json}", soft_wrap=True)
    if args.plot:
        from .plot import plot_win_rates

        try:
            plot_win_rates(result, args.plot)
        except (OSError, ValueError) as error:
            raise UsageError(f"cannot write {args.plot}: {error}") from None
        console.print(f"Wrote {args.plot}", soft_wrap=True)
    return 0


def _write_text(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def cmd_play(args: argparse.Namespace) -> int:
    rules = build_rules(args)
    try:
        make_player(args.opponents)
    except ValueError as error:
        raise UsageError(str(error)) from None
    # Imported here: only this command needs the terminal game.
    from .terminal import TerminalGame

    game = _new_game(rules, args.seed)
    console = _console()
    return TerminalGame(game, args.opponents, args.deck_look, sys.stdin, console, args.name).run()


# -- the parser ------------------------------------------------------------------------


def _add_rule_options(
    parser: argparse.ArgumentParser, seed_help: str = "seed of every shuffle (default: random)"
) -> None:
    parser.add_argument(
        "--preset", default="scopa", help=f"rule preset: {', '.join(PRESETS)} (default scopa)"
    )
    parser.add_argument("--players", type=int, help="2, 3, 4 or 6 (default: the preset's)")
    parser.add_argument("--teams", type=int, help="number of sides: 3 lets 6 players play in pairs")
    parser.add_argument("--seed", type=int, help=seed_help)
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="override one rule, such as target=21 or napola=true (repeatable; "
        "'scopa presets' lists the rules)",
    )


def _add_look_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deck-look",
        default="french",
        choices=LOOKS,
        help="how cards are printed (default french)",
    )


def _room_parts() -> tuple[Part, ...]:
    """The card room's parts, whose flags ``scopa serve`` takes (:mod:`.server.feature`); none
    without the room extra, whose absence ``scopa serve`` then reports."""
    try:
        from .server.parts import PARTS
    except ImportError:
        return ()
    return PARTS


def _version() -> str:
    """The version, which core runs (compiled or pure) and on which interpreter: the
    speed of the bots and tournaments depends on both."""
    interpreter = f"{platform.python_implementation()} {platform.python_version()}"
    return f"scopa {__version__} ({core()} core, {interpreter})"


def cmd_puzzles_make(args: argparse.Namespace) -> int:
    from .puzzles import make
    from .puzzles.sets import write

    try:
        Rules.preset(args.preset)
        output = Path(args.output or f"{args.preset}-puzzles.json.gz")
        progress_console = _console(stderr=True)
        with Progress(
            TextColumn("puzzles"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=progress_console, disable=not progress_console.is_terminal,
        ) as progress:
            task = progress.add_task("", total=args.count)
            puzzles = make(args.preset, args.count, args.seed,
                           found=lambda _: progress.advance(task))
    except ValueError as error:
        raise UsageError(str(error)) from None
    write(output, args.preset, args.seed, puzzles)
    themes = Counter(theme for puzzle in puzzles for theme in puzzle.themes)
    ratings = sorted(puzzle.rating for puzzle in puzzles)
    console = _console()
    console.print(f"{len(puzzles)} {args.preset} puzzles, seed {args.seed}, written to {output}",
                  soft_wrap=True)
    console.print("themes: " + ", ".join(f"{theme} {n}" for theme, n in themes.most_common()),
                  soft_wrap=True)
    console.print(f"ratings: {ratings[0]} to {ratings[-1]}, median {ratings[len(ratings) // 2]}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="scopa", description="Scopa and Escoba: rules presets, deals and matches."
    )
    parser.add_argument("--version", action="version", version=_version())
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    presets = commands.add_parser("presets", help="list the rule presets and all their fields")
    presets.set_defaults(run=cmd_presets)

    deal = commands.add_parser("deal", help="show the first deal of a match")
    _add_rule_options(deal)
    _add_look_option(deal)
    deal.set_defaults(run=cmd_deal)

    record = commands.add_parser(
        "record", help="play a match with seeded random legal moves and write its record JSON"
    )
    _add_rule_options(record)
    record.add_argument("-o", "--output", help="file to write (default: standard output)")
    record.set_defaults(run=cmd_record)

    replay = commands.add_parser("replay", help="replay a record and show each round's scoring")
    replay.add_argument("file", help="record JSON file ('-' reads standard input)")
    replay.add_argument("--moves", action="store_true", help="also list every move")
    _add_look_option(replay)
    replay.set_defaults(run=cmd_replay)

    serve = commands.add_parser("serve", help="run the card room: lobby, tables, bots")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port (0: any free one)")
    serve.add_argument("--db", help="database URL (default: sqlite+aiosqlite:///scopa.db)")
    serve.add_argument(
        "--bot-delay", type=float, metavar="SECONDS", help="bots' pause before playing"
    )
    serve.add_argument(
        "--turn-timeout",
        type=float,
        metavar="SECONDS",
        help="a bot plays for a person silent for a turn this long, until they come back "
        "(default: 60)",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="share the room with other processes through Redis (redis://host:6379/0)",
    )
    serve.add_argument("--name", help="this process's name among them (default: host:pid)")
    serve.add_argument(
        "--lobby-writes",
        metavar="LIMITS",
        help="lobby POSTs allowed per client address (default: '20/second;300/minute')",
    )
    serve.add_argument(
        "--lobby-reads",
        metavar="LIMITS",
        help="lobby GETs allowed per client address (default: '50/second;1200/minute')",
    )
    serve.add_argument(
        "--table-sockets-per-address",
        type=int,
        metavar="N",
        help="table sockets one client address may keep open on this process (default: 30)",
    )
    serve.add_argument(
        "--provisional-matches",
        type=int,
        metavar="N",
        help="rated matches in a pool before a rating leaves provisional (default: 5)",
    )
    serve.add_argument(
        "--login-per-address",
        metavar="LIMITS",
        help="login attempts allowed per client address (default: '10/minute;60/hour')",
    )
    serve.add_argument(
        "--login-per-account",
        metavar="LIMITS",
        help="login attempts allowed per account from one client address "
        "(default: '5/minute;30/hour')",
    )
    serve.add_argument(
        "--register-per-address",
        metavar="LIMITS",
        help="new accounts allowed per client address, each costing two password hashes "
        "(default: '5/minute;30/hour')",
    )
    serve.add_argument(
        "--review-workers",
        type=int,
        metavar="N",
        help="processes that run the master's reviews, apart from the bots' and at a lower "
        "CPU priority (default: 1)",
    )
    serve.add_argument(
        "--review-queue",
        type=int,
        metavar="N",
        help="reviews this process works out at once; one more is refused with 503 "
        "(default: 4)",
    )
    serve.add_argument(
        "--review-per-address",
        metavar="LIMITS",
        help="reviews allowed per client address (default: '10/minute;60/hour')",
    )
    serve.add_argument(
        "--review-per-account",
        metavar="LIMITS",
        help="reviews allowed per logged-in account (default: '10/minute;60/hour')",
    )
    serve.add_argument(
        "--bot-queue",
        action="store_true",
        help="bots and hints run in `scopa bots` workers through Redis (needs --redis)",
    )
    for part in _room_parts():
        part.flags(serve)
    serve.set_defaults(run=cmd_serve)

    workers = commands.add_parser(
        "bots", help="a bot worker for the card room: searches from the Redis queue"
    )
    workers.add_argument("--redis", required=True, metavar="URL", help="the room's Redis")
    workers.add_argument("--name", help="this worker's name (default: bots@host:pid)")
    workers.set_defaults(run=cmd_bots)

    contest = commands.add_parser(
        "tournament",
        help="play two bot levels against each other on paired deals and compare them",
    )
    contest.add_argument("first", help="level whose win rate is measured (random, greedy, ...)")
    contest.add_argument("second", help="level it plays against")
    _add_rule_options(contest, seed_help="seed the match seeds are drawn from (default 1)")
    contest.set_defaults(seed=1)
    contest.add_argument(
        "--matches",
        type=int,
        default=100,
        help="match seeds, each played once per side: 2 players give 2 matches a seed "
        "(default 100)",
    )
    contest.add_argument("--jobs", type=int, default=1, help="processes to play on (default 1)")
    contest.add_argument("--json", metavar="FILE", help="write every figure and match as JSON")
    contest.add_argument(
        "--plot", metavar="FILE", help="draw the win rates with their intervals (matplotlib)"
    )
    contest.set_defaults(run=cmd_tournament)

    puzzles = commands.add_parser("puzzles", help="puzzles from the exact solver")
    puzzle_commands = puzzles.add_subparsers(dest="puzzles", required=True, metavar="COMMAND")
    make_puzzles = puzzle_commands.add_parser(
        "make",
        help="find last-deal positions where one move is strictly best, in bots' matches",
    )
    make_puzzles.add_argument("--preset", default="scopa", help="a 2-player preset (default scopa)")
    make_puzzles.add_argument("--count", type=int, default=100, help="puzzles (default 100)")
    make_puzzles.add_argument("--seed", type=int, default=1, help="the set's seed (default 1)")
    make_puzzles.add_argument(
        "--output", metavar="FILE", help="where to write them (default PRESET-puzzles.json.gz)"
    )
    make_puzzles.set_defaults(run=cmd_puzzles_make)

    moderation = commands.add_parser(
        "moderate", help="the chat's reports; silence or ban an account; linked accounts; "
                         "mark an engine user or a booster"
    )
    moderation_commands = moderation.add_subparsers(
        dest="moderate", required=True, metavar="COMMAND"
    )
    listed = moderation_commands.add_parser("reports", help="list the reported messages")
    listed.add_argument("--json", action="store_true", help="as JSON")
    silence = moderation_commands.add_parser(
        "silence", help="an account may send the quick phrases only"
    )
    ban = moderation_commands.add_parser("ban", help="an account may no longer log in")
    for sanction in (silence, ban):
        sanction.add_argument("name", help="the account's name")
        sanction.add_argument("--reason", required=True, help="why: the account is shown it")
    links = moderation_commands.add_parser(
        "links", help="the accounts that share an address or a browser with one, "
                      "and their rated matches together")
    links.add_argument("name", help="the account's name")
    links.add_argument("--json", action="store_true", help="as JSON")
    mark = moderation_commands.add_parser(
        "mark", help="an engine user or a booster: off the leaderboards and the podiums, "
                     "casual from now on, its last 30 days' opponents refunded")
    kind = mark.add_mutually_exclusive_group(required=True)
    kind.add_argument("--engine", dest="kind", action="store_const", const="engine",
                      help="played with an engine's help")
    kind.add_argument("--booster", dest="kind", action="store_const", const="booster",
                      help="bought or sold rating with another account")
    unmark = moderation_commands.add_parser("unmark", help="undo a mark, its refunds too")
    for act in (mark, unmark):
        act.add_argument("name", help="the account's name")
        act.add_argument("--reason", required=True, help="why: kept in the moderators' log")
        act.add_argument("--by", help="the moderator, for the log (default: this system user)")
    suspected = moderation_commands.add_parser(
        "suspects", help="accounts far above their peers' agreement with the master")
    suspected.add_argument("--json", action="store_true", help="as JSON")
    acts = moderation_commands.add_parser("acts", help="the moderators' marks and unmarks")
    acts.add_argument("name", nargs="?", help="only this account's")
    for command in (listed, silence, ban, links, mark, unmark, acts, suspected):
        command.add_argument("--db", help="database URL (default: sqlite:///scopa.db)")
        command.set_defaults(run=cmd_moderate)

    play = commands.add_parser("play", help="play a match in the terminal against bots")
    _add_rule_options(play)
    play.add_argument(
        "--opponents", default="expert", help="level of every bot, partners too (default expert)"
    )
    play.add_argument(
        "--deck",
        "--deck-look",
        dest="deck_look",
        default="french",
        choices=LOOKS,
        help="how cards are shown (default french)",
    )
    play.add_argument("--name", default="You", help="your name at the table")
    play.set_defaults(run=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0, or 2 for bad input)."""
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help and --version
            return done.code if isinstance(done.code, int) else 0
        status: int = args.run(args)
        return status
    except (UsageError, MissingExtraError) as error:
        print(f"scopa: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``scopa replay match.json | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
