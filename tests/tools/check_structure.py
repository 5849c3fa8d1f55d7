#!/usr/bin/env python3
"""tests/tools/check_structure.py: the layering rules of src/ checked on the built objects.

Each object file is one unit (one .c file). Unit A depends on unit B when A
references a global symbol that B defines (read with nm, so calls through
headers count, not only includes). The check fails when
  - units depend on each other in a circle (a strongly connected component
    of more than one unit), or
  - a unit depends on a unit of a higher layer (the layers below, lowest
    first, as in DESIGN.md).
Usage: check_structure.py SRC_DIR OBJECT...
"""
import os
import subprocess
import sys

# DESIGN.md's layers, lowest first; a folder may use its own layer and the ones below.
LAYERS = [
    ["core"],
    ["sparse", "linsol"],
    ["steppers"],
    ["backends"],
    ["io"],
    ["models"],
    ["registry"],
    ["bvp", "multibody", "parallel"],
    ["verify"],
    ["cli"],
]
RANK = {folder: k for k, names in enumerate(LAYERS) for folder in names}


def unit_name(obj):
    """src/CMakeFiles/stiffkit.dir/core/options.c.o -> core/options.c"""
    path = obj.replace(os.sep, "/")
    marker = ".dir/"
    cut = path.find(marker)
    rel = path[cut + len(marker):] if cut >= 0 else os.path.basename(path)
    return rel[:-2] if rel.endswith(".o") else rel


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            used.add(name)
        elif kind.isupper() and kind not in "NW":
            defined.add(name)
    return defined, used


def strongly_connected(nodes, edges):
    """Tarjan's algorithm, iterative; returns the components of more than one node."""
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return comps


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    objects = [o for o in argv[2:] if o.endswith(".o")]
    defined_by, uses = {}, {}
    for obj in objects:
        unit = unit_name(obj)
        defined, used = symbols(obj)
        uses[unit] = used
        for name in defined:
            defined_by.setdefault(name, unit)
    edges, why = {}, {}
    for unit, used in uses.items():
        for name in used:
            target = defined_by.get(name)
            if target and target != unit:
                edges.setdefault(unit, set()).add(target)
                why.setdefault((unit, target), []).append(name)
    failures = 0
    for comp in strongly_connected(sorted(uses), edges):
        failures += 1
        print("circle: " + " <-> ".join(comp))
        for a in comp:
            for b in comp:
                if (a, b) in why:
                    print("  %s -> %s: %s" % (a, b, ", ".join(sorted(why[(a, b)])[:6])))
    for (a, b), names in sorted(why.items()):
        fa, fb = a.split("/")[0], b.split("/")[0]
        if fa in RANK and fb in RANK and RANK[fb] > RANK[fa]:
            failures += 1
            print("upward: %s (layer %d) -> %s (layer %d): %s"
                  % (a, RANK[fa] + 1, b, RANK[fb] + 1, ", ".join(sorted(names)[:6])))
    unknown = sorted({u.split("/")[0] for u in uses if u.split("/")[0] not in RANK})
    if unknown:
        failures += 1
        print("folders without a layer (add them to DESIGN.md and LAYERS): " + ", ".join(unknown))
    print("%d units, %d dependencies, %d problems" %
          (len(uses), sum(len(v) for v in edges.values()), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
