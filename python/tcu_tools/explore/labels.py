"""Point labels that do not overlap one another.

A deterministic greedy placement: labels are placed one at a time (in the
order given), each at the first candidate position around its point (eight
directions on rings of growing radius) whose text box, in display
coordinates, overlaps no label placed before it and no obstacle (the plot's
markers, its legend), and stays inside the axes. A label away from the
first ring gets a leader line to its point. Labels with the same text at
the same point are one label."""
from __future__ import annotations

import math

# Directions tried on each ring: right, up-right, up, up-left, left, ...
DIRECTIONS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
FIRST_RADIUS = 6  # points
RING_STEP = 10  # points
RINGS = 40
PAD = 1.0  # display pixels kept between two labels


def overlaps(a, b, pad: float = 0.0) -> bool:
    """Whether two display boxes (x0, y0, x1, y1) overlap (closer than pad)."""
    return not (a[2] + pad <= b[0] or b[2] + pad <= a[0] or a[3] + pad <= b[1] or
                b[3] + pad <= a[1])


def box(annotation, renderer) -> tuple[float, float, float, float]:
    extent = annotation.get_window_extent(renderer)
    return (extent.x0, extent.y0, extent.x1, extent.y1)


def alignment(dx: int, dy: int) -> tuple[str, str]:
    return ({1: "left", 0: "center", -1: "right"}[dx],
            {1: "bottom", 0: "center", -1: "top"}[dy])


def candidates():
    for ring in range(RINGS):
        radius = FIRST_RADIUS + ring * RING_STEP
        for dx, dy in DIRECTIONS:
            scale = radius / math.hypot(dx, dy) if (dx and dy) else radius
            yield ring, (dx * scale, dy * scale), alignment(dx, dy)


def marker_boxes(ax, points: list[tuple[float, float]], radius: float = 6.0):
    """Display boxes around markers at data points (radius in pixels)."""
    boxes = []
    for x, y in points:
        px, py = ax.transData.transform((x, y))
        boxes.append((px - radius, py - radius, px + radius, py + radius))
    return boxes


def line_boxes(ax, points: list[tuple[float, float]], step: float = 4.0, half: float = 2.0):
    """Display boxes along a polyline through data points, every `step`
    pixels (so that labels keep off a drawn line)."""
    pixels = [ax.transData.transform(p) for p in points]
    boxes = []
    for (x0, y0), (x1, y1) in zip(pixels, pixels[1:]):
        count = max(1, int(math.hypot(x1 - x0, y1 - y0) / step))
        for i in range(count + 1):
            x, y = x0 + (x1 - x0) * i / count, y0 + (y1 - y0) * i / count
            boxes.append((x - half, y - half, x + half, y + half))
    return boxes


def place_labels(ax, points: list[tuple[float, float, str]], fontsize: float = 8,
                 obstacles=None) -> list:
    """Annotations for (x, y, text) in data coordinates, placed so that no
    two text boxes overlap, nor a text box an obstacle (display boxes).
    Returns the annotations in the order given (None for a duplicate of an
    earlier label, or one that found no free place)."""
    figure = ax.figure
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    bounds = ax.bbox
    placed: list[tuple[float, float, float, float]] = []
    blocked = list(obstacles or [])
    annotations = []
    seen = set()
    for x, y, text in points:
        if (x, y, text) in seen:
            annotations.append(None)
            continue
        seen.add((x, y, text))
        annotation = ax.annotate(text, (x, y), textcoords="offset points", xytext=(0, 0),
                                 fontsize=fontsize, annotation_clip=False, zorder=4)
        chosen = None
        for ring, offset, (ha, va) in candidates():
            annotation.set_position(offset)
            annotation.set_ha(ha)
            annotation.set_va(va)
            b = box(annotation, renderer)
            inside = (b[0] >= bounds.x0 and b[2] <= bounds.x1 and b[1] >= bounds.y0 and
                      b[3] <= bounds.y1)
            if inside and not any(overlaps(b, other, PAD) for other in placed + blocked):
                chosen = (ring, b)
                break
        if chosen is None:  # nowhere free: leave it out rather than overlap
            annotation.remove()
            annotations.append(None)
            continue
        if chosen[0] > 0:
            ax.annotate("", (x, y), xytext=annotation.get_position(), textcoords="offset points",
                        arrowprops={"arrowstyle": "-", "color": "0.5", "linewidth": 0.6},
                        annotation_clip=False, zorder=1)
        placed.append(chosen[1])
        annotations.append(annotation)
    return annotations


def label_boxes(annotations, renderer) -> list[tuple[float, float, float, float]]:
    """The display boxes of placed annotations (for tests and checks)."""
    return [box(a, renderer) for a in annotations if a is not None]


def overlapping_pairs(boxes) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
            if overlaps(boxes[i], boxes[j])]
