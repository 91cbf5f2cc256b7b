"""Tests of scripts/check_architecture.py's reading of the manual's crate map and of
Cargo's metadata, without running cargo. Standard library only:

    python3 -m unittest discover -s scripts/tests
"""
import pathlib
import sys
import unittest

SCRIPTS = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(SCRIPTS))
import check_architecture as c  # noqa: E402

CARGO = {"model": set(), "store": {"model"}, "app": {"model", "store"}, "server": {"app", "store"}}

DOC = """# Architecture

## The crate map

```text
 server ---> app ---> store ---> model
```

Direct dependencies (not counting tests):

| crate | depends on |
|---|---|
| `model` | nothing of Gapwise's |
| `store` | `model` |
| `app` | `model`; with the ssr feature also `store` |
| `server` | `app`, `store` |

## Where things are
"""


def metadata(packages):
    """`cargo metadata`'s JSON for packages {name: (deps, features)}."""
    out = {"workspace_members": [], "packages": []}
    for name, (deps, features) in packages.items():
        out["workspace_members"].append(f"id-{name}")
        out["packages"].append({"id": f"id-{name}", "name": name, "features": features, "dependencies": [
            {"name": d, "kind": kind, "optional": optional, "path": f"/w/{d}", "rename": None}
            for d, kind, optional in deps]})
    return out


class Table(unittest.TestCase):
    def test_agreeing_map_has_no_problems(self):
        self.assertEqual(c.check(CARGO, DOC), [])

    def test_missing_and_extra_edges_are_both_reported(self):
        doc = DOC.replace("| `server` | `app`, `store` |", "| `server` | `app`, `model` |")
        problems = c.check(CARGO, doc)
        self.assertIn("table: server -> store is missing (Cargo has it)", problems)
        self.assertIn("table: server -> model is extra (Cargo has no such dependency)", problems)
        self.assertEqual(len(problems), 2)

    def test_unknown_and_unlisted_crates_are_reported(self):
        doc = DOC.replace("| `model` | nothing of Gapwise's |", "| `modle` | nothing of Gapwise's |")
        doc = doc.replace("| `store` | `model` |", "| `store` | `model`, `db` |")
        problems = c.check(CARGO, doc)
        self.assertIn("table: modle is no crate of the workspace", problems)
        self.assertIn("table: model has no row", problems)
        self.assertIn("table: store depends on db, which is no crate of the workspace", problems)

    def test_a_crate_the_diagram_leaves_out_is_reported(self):
        doc = DOC.replace(" ---> model", "")
        self.assertEqual(c.check(CARGO, doc), ["diagram: model is not named"])

    def test_a_crate_named_only_inside_another_name_is_not_named(self):
        doc = DOC.replace("server ---> app", "gapwise-server ---> app")
        self.assertEqual(c.check(CARGO, doc), ["diagram: server is not named"])

    def test_no_table_is_a_problem(self):
        doc = DOC.replace("Direct dependencies (not counting tests):", "")
        self.assertTrue(c.check(CARGO, doc))


class Cargo(unittest.TestCase):
    def test_normal_and_feature_enabled_dependencies_count_dev_and_build_do_not(self):
        graph = c.cargo_graph(metadata({
            "gapwise-model": ([], {}),
            "gapwise-store": ([("gapwise-model", None, False), ("gapwise-store", "dev", False)], {}),
            "gapwise-app": ([("gapwise-model", None, False), ("gapwise-store", None, True),
                             ("gapwise-server", None, True)],
                            {"ssr": ["dep:gapwise-store"], "x": ["gapwise-server?/y"]}),
            "gapwise-server": ([("gapwise-app", None, False), ("gapwise-store", "build", False),
                                ("gapwise-model", "dev", False)], {}),
        }))
        self.assertEqual(graph, {"model": set(), "store": {"model"}, "app": {"model", "store"},
                                 "server": {"app"}})

    def test_optional_dependencies_turned_on_by_name_or_by_one_of_their_features(self):
        self.assertEqual(c.enabled_optional({"a": ["x"], "b": ["y/f"], "c": ["z?/f"], "d": ["dep:w"]}),
                         {"x", "y", "w"})


if __name__ == "__main__":
    unittest.main()
