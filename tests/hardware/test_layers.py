"""hardware/ stands below the companion: it imports only the core nouns (and itself), so readers
report events and health and never build the table model, the session or anything above."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.hardware.helpers import ROOT

PROJECT = {"companion", "hardware", "vision", "web", "firmware", "bench", "tests"}
ALLOWED = ("companion.core", "hardware")


def project_imports(path: Path) -> list[tuple[int, str]]:
    """Every module of the project that ``path`` imports, wherever in the file (lazy imports too)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # `from companion import table` imports companion.table
            names = [f"{node.module}.{alias.name}" for alias in node.names] if node.module in PROJECT else [node.module]
            found += [(node.lineno, name) for name in names]
    return [(line, name) for line, name in found if name.split(".")[0] in PROJECT]


def allowed(module: str) -> bool:
    return any(module == root or module.startswith(root + ".") for root in ALLOWED)


def test_hardware_imports_only_the_core_and_itself() -> None:
    files = sorted((ROOT / "hardware").rglob("*.py"))
    assert len(files) > 10
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for line, module in project_imports(path)
        if not allowed(module)
    ]
    assert wrong == []


def test_the_check_sees_an_import_from_above(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text(
        "import nfc\nfrom companion.core.readers import ReaderEvent\n"
        "def f():\n    from companion.table.model import TableModel\n    from companion import app\n",
        encoding="utf-8",
    )
    imports = project_imports(source)
    assert imports == [(2, "companion.core.readers"), (4, "companion.table.model"), (5, "companion.app")]
    assert [allowed(module) for _, module in imports] == [True, False, False]
