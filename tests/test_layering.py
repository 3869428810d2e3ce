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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _engine_imports(path: Path) -> set[str]:
    """Every engine module ``path`` imports, at the top or inside a function."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found |= {module} | {f"{module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {m for m in found if m.split(".")[0] == "engine"}


def test_the_domain_never_imports_its_tools():
    """Tools (benchmarks, fitting, the warm-up) use the domain, never the other way round."""
    offenders = [f"{name} imports {target}" for name, path in sorted(
        (_module_name(p), p) for p in ENGINE.rglob("*.py") if "tools" not in p.relative_to(ENGINE).parts)
        for target in sorted(_engine_imports(path)) if target.startswith("engine.tools")]
    assert offenders == []


def test_the_domain_modules_import_each_other_without_a_cycle():
    """Tools (engine.tools) may use the whole domain; among the domain's own modules no
    import, not even one inside a function, leads back to where it started.  A package's
    __init__ only re-exports, so it starts no cycle."""
    modules = {_module_name(p): p for p in ENGINE.rglob("*.py")}
    domain = {m for m in modules if not m.startswith("engine.tools") and modules[m].name != "__init__.py"}
    graph = {m: {t for t in _engine_imports(modules[m]) if t in domain and t != m} for m in domain}
    cycles = []

    def visit(module: str, path: list[str], done: set[str]) -> None:
        for target in sorted(graph[module]):
            if target in path:
                cycles.append(path[path.index(target):] + [target])
            elif target not in done:
                done.add(target)
                visit(target, path + [target], done)

    for start in sorted(domain):
        visit(start, [start], {start})
    assert cycles == []

