"""The card room's code keeps a shape a reader can hold (issue 32, item 5): no class of the room
over 450 lines, so a table is its pieces (seating, turns, listeners, hints) composed by one
writer, not one class that does everything; and the table's pieces reach each other through
public names only."""

from __future__ import annotations

import ast
from pathlib import Path

ROOM = Path(__file__).resolve().parents[2] / "src" / "scopa" / "server"
MOST_LINES = 450


def _classes(folder: Path) -> dict[tuple[str, str], int]:
    """Each class under ``folder``, by (module path, name), and how many lines it spans."""
    sizes = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                where = path.relative_to(ROOM).as_posix()
                sizes[(where, node.name)] = node.end_lineno - node.lineno + 1
    return sizes


def test_no_class_of_the_room_is_over_450_lines() -> None:
    sizes = _classes(ROOM)
    assert ("table/tables.py", "Table") in sizes
    assert ("store/storage.py", "Storage") in sizes
    assert {key: lines for key, lines in sizes.items() if lines > MOST_LINES} == {}


def test_the_table_package_has_no_class_over_450_lines_and_its_room_module_stays_short() -> None:
    sizes = _classes(ROOM / "table")
    assert {key: lines for key, lines in sizes.items() if lines > MOST_LINES} == {}
    room = (ROOM / "table" / "room.py").read_text(encoding="utf-8")
    assert len(room.splitlines()) <= MOST_LINES


def test_the_tables_pieces_use_no_private_name_of_one_another() -> None:
    """A piece of the table calls another's public methods: ``x._name`` is only ever ``self``'s
    own (or the standard library's, as ``os._exit``), and no module imports another's
    ``_name``."""
    for path in sorted((ROOM / "table").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {alias.asname or alias.name for node in ast.walk(tree)
                   if isinstance(node, ast.Import) for alias in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                    and not node.attr.startswith("__"):
                owner = node.value
                own = isinstance(owner, ast.Name) and owner.id in {"self", "cls", *modules}
                assert own, f"{path.name}:{node.lineno}: {ast.unparse(node)}"
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                private = [alias.name for alias in node.names if alias.name.startswith("_")]
                assert private == [], f"{path.name}:{node.lineno} imports {private}"
