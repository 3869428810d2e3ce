"""The engine is importable without any UI: it never imports textual or skat_tui."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).parent.parent / "engine"
FORBIDDEN = ("textual", "skat_tui")


def test_no_engine_module_imports_the_ui():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_the_engine_loads_no_ui_module():
    code = (
        "import sys, pkgutil, importlib, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'skat_tui')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr


TOOLING = {"bench", "search_bench", "selfplay", "warmup"}


def test_the_engines_top_level_holds_the_domain_and_tools_live_in_engine_tools():
    top_level = {path.stem for path in ENGINE.glob("*.py")}
    assert top_level & TOOLING == set()
    assert TOOLING <= {path.stem for path in (ENGINE / "tools").glob("*.py")}


def test_the_front_door_exports_what_it_lists():
    import engine

    missing = [name for name in engine.__all__ if not hasattr(engine, name)]
    assert missing == []


def test_the_readme_library_example_runs_on_the_front_door_alone():
    readme = (ENGINE.parent / "README.md").read_text()
    section = readme.split("## The engine as a library", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    imports = [line for line in code.splitlines() if line.startswith(("import ", "from "))]
    assert imports == ["import engine"]
    code = code.replace("mcu:simulations=100", "mcu:simulations=2")  # the same calls, a small budget
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "GameResult(" in proc.stdout
