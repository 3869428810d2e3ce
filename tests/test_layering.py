"""The engine is importable without any UI (it never imports textual or skat_tui), and its
modules import one another only down the layers of ``LAYERS``."""

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
    return _imports_in(path.read_text(), _module_name(path), path.name == "__init__.py", str(path))


def _imports_in(source: str, name: str, is_package: bool = False, filename: str = "<source>") -> set[str]:
    """Every engine module the source of module ``name`` imports (each ``from … import x``
    also as ``….x``, which may name a module), at the top or inside a function."""
    package = name if is_package else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(source, filename)):
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



LAYERS = (
    ("core", ("engine.cards", "engine.rules", "engine.scoring", "engine.game", "engine.limits",
              "engine.house_rules", "engine.card_layout", "engine.record", "engine.replay",
              "engine.analysis", "engine.evaluation")),
    ("policy and solver", ("engine.policy", "engine.dds", "engine.positions")),
    ("worlds", ("engine.worlds",)),
    ("players", ("engine.players",)),
    ("uses", ("engine", "engine.series", "engine.service", "engine.tournament", "engine.review",
              "engine.calibration", "engine.processes", "engine.workers")),
    ("tools", ("engine.tools",)),
)
"""The engine's layers, lowest first: a module imports only from its own layer and the
layers below.  The core (cards, rules, scoring, the game, limits, records) needs nothing
else; the heuristic's policy (``engine.policy``) and the double-dummy solver
(``engine.dds``) are the numba kernels on it; the world model (``engine.worlds``) uses
the policy; the players use the worlds; series, service, tournament, review, calibration,
their worker processes (``engine.processes``, ``engine.workers``) and the front door (``engine``) use the
players; tools use everything."""


def _layer(module: str) -> int | None:
    """The index in ``LAYERS`` of the layer ``module`` belongs to (the longest listed
    prefix; ``engine`` itself only names the front door), None when it has none."""
    parts = module.split(".")
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        if prefix == "engine" and module != "engine":
            break
        for index, (_, members) in enumerate(LAYERS):
            if prefix in members:
                return index
    return None


def _upward_imports(module: str, imports: set[str]) -> list[str]:
    """The imports of ``module`` that reach into a higher layer.  The package ``engine``
    itself is loaded before any of its modules, so ``from .. import rules`` counts as
    ``engine.rules`` only; a name directly under ``engine`` that is no module of a layer
    (``from engine import Limit``) comes from the front door."""
    own = _layer(module)
    front_door = _layer("engine")
    found = []
    for target in sorted(imports):
        layer = _layer(target)
        if target == "engine" or own is None:
            continue
        if layer is None:
            layer = front_door
        if layer > own:
            found.append(f"{module} ({LAYERS[own][0]}) imports {target} ({LAYERS[layer][0]})")
    return found


def test_every_engine_module_has_a_layer():
    unplaced = sorted(name for name in map(_module_name, ENGINE.rglob("*.py")) if _layer(name) is None)
    assert unplaced == []


def test_the_layers_import_only_downward():
    """No module imports from a higher layer, not even inside a function."""
    offenders = [line for path in sorted(ENGINE.rglob("*.py"))
                 for line in _upward_imports(_module_name(path), _engine_imports(path))]
    assert offenders == []


def test_the_layer_check_sees_an_upward_import_inside_a_function():
    source = ("from ..cards import Card\n"
              "from ..policy import hand_eval\n"
              "def draw():\n"
              "    from ..players.heuristic import HeuristicPlayer\n")
    imports = _imports_in(source, "engine.worlds.fake")
    assert _upward_imports("engine.worlds.fake", imports) == [
        "engine.worlds.fake (worlds) imports engine.players.heuristic (players)",
        "engine.worlds.fake (worlds) imports engine.players.heuristic.HeuristicPlayer (players)",
    ]
    assert _upward_imports("engine.players.fake", imports) == []
    assert _upward_imports("engine.policy.fake", {"engine.worlds.sampling"}) != []
    assert _upward_imports("engine.limits", {"engine.calibration"}) != []
    # ``from .. import rules`` is no import of the front door; ``from engine import Limit`` is
    assert _upward_imports("engine.policy.fake", _imports_in("from .. import rules\n", "engine.policy.fake")) == []
    assert _upward_imports("engine.policy.fake", _imports_in("from engine import Limit\n", "engine.policy.fake")) == [
        "engine.policy.fake (policy and solver) imports engine.Limit (uses)"]
    assert [_layer(m) for m in ("engine.rules", "engine.policy.playout", "engine.worlds", "engine.players.mcu",
                                "engine", "engine.tools.warmup")] == [0, 1, 2, 3, 4, 5]
