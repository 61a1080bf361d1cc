"""Charts of a stride sweep (docs/measurements/*.csv) as SVG, written with the standard library
only: the same CSV always gives the same bytes, so committed charts are checked like the bank
maps. Two panels: wavefronts per request (model line, counter points) and the slowdown against
stride 1 (model line, measured points), both on log2 axes."""

import math
from typing import List, Tuple

from measurements import Sweep

WIDTH, HEIGHT = 960, 410
FONT = "DejaVu Sans,Verdana,Arial,sans-serif"
MODEL, COUNTER, TIMED, GRID, INK = "#4e79a7", "#e15759", "#f28e2b", "#e6e6e6", "#333333"


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


class Panel:
    def __init__(self, x: int, y: int, w: int, h: int, xmax: int, ylo: float, yhi: float):
        self.x, self.y, self.w, self.h = x, y, w, h
        self.xmax = xmax
        self.lo, self.hi = math.log2(ylo), math.log2(yhi)

    def px(self, stride: float) -> float:
        return self.x + self.w * stride / self.xmax

    def py(self, value: float) -> float:
        return self.y + self.h * (self.hi - math.log2(value)) / (self.hi - self.lo)


def _range(values: List[float]) -> Tuple[float, float]:
    lo = 2.0 ** math.floor(math.log2(min(values)))
    hi = 2.0 ** math.ceil(math.log2(max(values)))
    return lo, max(hi, lo * 2)


def _tick_label(v: float, suffix: str) -> str:
    return (f"{v:g}" if v >= 1 else f"1/{int(round(1 / v))}") + suffix


def _panel(out: List[str], p: Panel, title: str, ylabel: str, suffix: str,
           model: List[Tuple[int, float]], points: List[Tuple[int, float]],
           points_colour: str):
    out.append(f'<text x="{p.x}" y="{p.y - 14}" font-size="13" font-weight="bold" '
               f'fill="{INK}">{_esc(title)}</text>')
    # Grid and y ticks: powers of two.
    v = 2.0 ** p.lo
    while v <= 2.0 ** p.hi + 1e-9:
        y = _n(p.py(v))
        out.append(f'<line x1="{p.x}" y1="{y}" x2="{p.x + p.w}" y2="{y}" stroke="{GRID}"/>')
        out.append(f'<text x="{p.x - 6}" y="{_n(p.py(v) + 4)}" font-size="11" '
                   f'text-anchor="end" fill="{INK}">{_tick_label(v, suffix)}</text>')
        v *= 2
    step = 8 if p.xmax > 16 else 1
    for s in range(0, p.xmax + 1, step):
        x = _n(p.px(s))
        out.append(f'<line x1="{x}" y1="{p.y}" x2="{x}" y2="{p.y + p.h}" stroke="{GRID}"/>')
        out.append(f'<text x="{x}" y="{p.y + p.h + 16}" font-size="11" text-anchor="middle" '
                   f'fill="{INK}">{s}</text>')
    out.append(f'<rect x="{p.x}" y="{p.y}" width="{p.w}" height="{p.h}" fill="none" '
               f'stroke="#999999"/>')
    out.append(f'<text x="{_n(p.x + p.w / 2)}" y="{p.y + p.h + 34}" font-size="12" '
               f'text-anchor="middle" fill="{INK}">stride (elements)</text>')
    cy = _n(p.y + p.h / 2)
    out.append(f'<text x="{p.x - 40}" y="{cy}" font-size="12" text-anchor="middle" '
               f'fill="{INK}" transform="rotate(-90 {p.x - 40} {cy})">{_esc(ylabel)}</text>')

    path = " ".join(f"{'M' if i == 0 else 'L'}{_n(p.px(s))},{_n(p.py(v))}"
                    for i, (s, v) in enumerate(model))
    out.append(f'<path d="{path}" fill="none" stroke="{MODEL}" stroke-width="1.2" '
               f'stroke-opacity="0.6"/>')
    for s, v in model:
        out.append(f'<circle cx="{_n(p.px(s))}" cy="{_n(p.py(v))}" r="2.2" fill="{MODEL}"/>')
    for s, v in points:
        out.append(f'<circle cx="{_n(p.px(s))}" cy="{_n(p.py(v))}" r="3.5" fill="none" '
                   f'stroke="{points_colour}" stroke-width="1.8"><title>stride {s}: '
                   f'{v:.2f}{suffix}</title></circle>')



def _legend(out: List[str], x: int, y: int, entries: List[Tuple[str, str, bool]]):
    """One row of (colour, text, is_line) entries."""
    for colour, text, is_line in entries:
        if is_line:
            out.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 22}" y2="{y - 4}" stroke="{colour}" '
                       f'stroke-width="2"/><circle cx="{x + 11}" cy="{y - 4}" r="2.2" '
                       f'fill="{colour}"/>')
        else:
            out.append(f'<circle cx="{x + 11}" cy="{y - 4}" r="3.5" fill="none" stroke="{colour}" '
                       f'stroke-width="1.8"/>')
        out.append(f'<text x="{x + 28}" y="{y}" font-size="12" fill="{INK}">{_esc(text)}</text>')
        x += 28 + 7 * len(text) + 24


def chart(sweep: Sweep) -> str:
    rows = [r for r in sweep.rows if r.stride.isdigit()]
    op = sweep.header.get("access", "load")
    strides = [int(r.stride) for r in rows]
    xmax = max(8, max(strides))
    if xmax > 16:
        xmax = 8 * math.ceil(xmax / 8)

    waves = [(int(r.stride), float(r.model_wavefronts)) for r in rows]
    counters = [(int(r.stride), r.counter_wavefronts) for r in rows
                if r.counter_wavefronts is not None]
    model_slow = [(int(r.stride), r.model_slowdown) for r in rows]
    timed = [(int(r.stride), r.slowdown) for r in rows if r.slowdown is not None]

    measured = sweep.measured
    device = sweep.device.split(" (")[0] if measured else ""
    subtitle = (f"measured on {sweep.device}, {sweep.header['date']}" if measured else
                "model only: no GPU measurement committed yet")

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="title" '
           f'font-family="{FONT}">',
           f'<title id="title">{_esc(sweep.type)} {op}s by stride: wavefronts per request and '
           f'slowdown against stride 1 ({_esc(subtitle)})</title>',
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           f'<text x="16" y="26" font-size="16" font-weight="bold" fill="#1b1b1b">'
           f'{_esc(sweep.type)} {op}s by stride</text>',
           f'<text x="16" y="46" font-size="12" fill="#555555">{_esc(subtitle)} — '
           f'{_esc(sweep.path)}</text>']

    _legend(out, 80, 68, [
        (MODEL, "bank model", True),
        (COUNTER, f"hardware counters ({device})" if counters else "counters: not measured", False),
        (TIMED, f"timed, saturating launch ({device})" if timed else "timing: not measured", False)])

    top, h, w = 116, 240, 380
    lo, hi = _range([v for _, v in waves] + [v for _, v in counters])
    _panel(out, Panel(80, top, w, h, xmax, lo, hi), "Wavefronts per request",
           "wavefronts per request", "", waves, counters, COUNTER)
    lo, hi = _range([v for _, v in model_slow] + [v for _, v in timed])
    _panel(out, Panel(80 + w + 100, top, w, h, xmax, lo, hi), "Time against stride 1",
           "slowdown (× stride 1)", "x", model_slow, timed, TIMED)
    out.append("</svg>")
    return "\n".join(out) + "\n"
