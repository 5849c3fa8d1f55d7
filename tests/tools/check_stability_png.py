#!/usr/bin/python3
# tests/tools/check_stability_png.py: the trapezoidal rule's stability plot shades exactly the left half-plane
# usage: check_stability_png.py TRAP.png
# The trapezoidal rule's region is exactly Re z <= 0 (|R(z)| = |(1 + z/2) / (1 - z/2)| <= 1 iff
# Re z <= 0), and the plot window is symmetric about z = 0: along a row below the real axis most
# pixels left of the centre must carry the shade and most right of it must be white.
# exit 0: as expected; 1: not; 3: matplotlib is not installed
import sys


def main():
    try:
        import matplotlib.image as mpimg
    except ImportError:
        return 3
    img = mpimg.imread(sys.argv[1])
    h, w = img.shape[0], img.shape[1]
    row = img[int(0.70 * h)]

    def shaded(px):  # light blue: blue channel clearly above red, not white
        return px[2] - px[0] > 0.1

    def white(px):
        return min(px[0], px[1], px[2]) > 0.97

    left = [row[i] for i in range(int(0.20 * w), int(0.45 * w))]
    right = [row[i] for i in range(int(0.60 * w), int(0.85 * w))]
    fl = sum(shaded(p) for p in left) / len(left)
    fr = sum(white(p) for p in right) / len(right)
    print("left of Re z = 0: %.0f%% shaded; right: %.0f%% white" % (100 * fl, 100 * fr))
    return 0 if fl > 0.8 and fr > 0.8 else 1


if __name__ == "__main__":
    sys.exit(main())
