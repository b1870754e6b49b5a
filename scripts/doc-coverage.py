#!/usr/bin/env python3
"""The share of public declarations with a doc comment, per module, from symbol graphs.

Usage: python3 scripts/doc-coverage.py DIR [MODULE...]
  DIR: where `swift package dump-symbol-graph --skip-synthesized-members` wrote its *.symbols.json (it prints the path).
  MODULE: the modules to report (default: WebAuthn AppleSignIn LatchkeyClient LatchkeyServer).
Prints `MODULE documented/total percent` per module, then the undocumented declarations with their source location
when LATCHKEY_DOC_COVERAGE_LIST=1.

Counted: every public or open symbol the module declares (types, members, functions, cases), in the module's own graph
and its extensions of other modules' types (MODULE@Other.symbols.json). Not counted: synthesized members (Codable,
Equatable, …) and members inherited from protocols' default implementations, which have no source of their own.
"""
import glob
import json
import os
import sys

DEFAULT = ["WebAuthn", "AppleSignIn", "LatchkeyClient", "LatchkeyServer"]


def symbols(directory, module):
    files = [os.path.join(directory, f"{module}.symbols.json")] + glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))
    seen = {}
    for path in files:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "location" not in symbol:  # synthesized or inherited: nothing in this module's source to document
                continue
            if not symbol["location"]["uri"].find("/Sources/" + module + "/") >= 0:
                continue
            seen[symbol["identifier"]["precise"]] = symbol
    return list(seen.values())


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    directory = sys.argv[1]
    modules = sys.argv[2:] or DEFAULT
    listing = os.environ.get("LATCHKEY_DOC_COVERAGE_LIST") == "1"
    for module in modules:
        found = symbols(directory, module)
        documented = [s for s in found if s.get("docComment", {}).get("lines")]
        total = len(found)
        share = 100.0 * len(documented) / total if total else 100.0
        print(f"{module} {len(documented)}/{total} {share:.1f}%")
        if listing:
            for symbol in sorted(found, key=lambda s: (s["location"]["uri"], s["location"]["position"]["line"])):
                if not symbol.get("docComment", {}).get("lines"):
                    uri = symbol["location"]["uri"].split("/Sources/", 1)[-1]
                    line = symbol["location"]["position"]["line"] + 1
                    print(f"  {uri}:{line} {'.'.join(symbol['pathComponents'])}")


if __name__ == "__main__":
    main()
