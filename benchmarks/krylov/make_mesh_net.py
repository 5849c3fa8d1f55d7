#!/usr/bin/env python3
# benchmarks/krylov/make_mesh_net.py: an unstructured thermal network (an ODE: every node has a capacitance) for the AMG setup re-use measurement
"""usage: make_mesh_net.py OUT.net NODES [SEED]

NODES nodes at random points of the unit square, each joined by a resistor to
its 4 nearest neighbours (a k-nearest-neighbour graph: no grid structure), a
capacitance to ground at every node (so cvode-bdf integrates it), the nodes near
x = 0 held by a 20-degree ambient, the nodes near x = 1 heated by a 1 W source
each; all start at 20. Deterministic for a given seed."""
import random
import sys


def main():
    out, nodes = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    pts = [(rng.random(), rng.random()) for _ in range(nodes)]
    cells = max(1, int((nodes / 4) ** 0.5))
    grid = {}
    for i, (x, y) in enumerate(pts):
        grid.setdefault((int(x * cells), int(y * cells)), []).append(i)
    edges = set()
    for i, (x, y) in enumerate(pts):
        cx, cy = int(x * cells), int(y * cells)
        near = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((cx + dx, cy + dy), []):
                    if j != i:
                        near.append(((pts[j][0] - x) ** 2 + (pts[j][1] - y) ** 2, j))
        for _, j in sorted(near)[:4]:
            edges.add((min(i, j), max(i, j)))
    with open(out, "w") as f:
        f.write("* k-nearest-neighbour thermal mesh: %d nodes, %d resistors\n" % (nodes, len(edges)))
        f.write("Vamb amb 0 20\n")
        for i in range(nodes):
            f.write("Cn%d n%d 0 %.6g\n" % (i, i, 0.5 + rng.random()))
        for k, (i, j) in enumerate(sorted(edges)):
            f.write("Re%d n%d n%d %.6g\n" % (k, i, j, 0.5 + rng.random()))
        for i, (x, _) in enumerate(pts):
            if x < 0.02:
                f.write("Ra%d n%d amb 0.1\n" % (i, i))
            elif x > 0.98:
                f.write("Iq%d 0 n%d 1\n" % (i, i))
        f.write(".ic " + " ".join("n%d=20" % i for i in range(min(nodes, 1))) + "\n")
        f.write(".end\n")


if __name__ == "__main__":
    main()
