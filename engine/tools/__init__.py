"""Tooling around the engine: benchmarks, fitting, warm-up and checks; not part of the rules."""
