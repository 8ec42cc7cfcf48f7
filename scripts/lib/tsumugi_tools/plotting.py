"""What the benchmark plots share."""

from __future__ import annotations

# Fonts with Japanese glyphs, in order of preference (the problems' names are Japanese; the
# default DejaVu Sans draws them as boxes).
JAPANESE_FONTS = ("IPAGothic", "IPAPGothic", "Noto Sans CJK JP", "TakaoGothic", "IPAexGothic")


def japanese_font() -> str | None:
    """The first installed font of JAPANESE_FONTS, or None (needs matplotlib)."""
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in JAPANESE_FONTS if name in have), None)


def use_japanese_font(plt) -> bool:
    """Makes `plt` draw text with a Japanese font when one is installed, DejaVu Sans beside it.
    Whether one was (else Japanese names should be drawn in Latin letters)."""
    jp = japanese_font()
    if jp:
        plt.rcParams["font.family"] = [jp, "DejaVu Sans"]
    return jp is not None


def series_spec(spec: str) -> tuple[str, str] | None:
    """(label, path) of a `--series LABEL=PATH` argument, or None when it is not of that form."""
    label, sep, path = spec.partition("=")
    return (label, path) if sep and label and path else None


def table_minutes(at: str | None, end_s: float) -> list[float]:
    """The minutes of a `--at` argument (comma-separated; ValueError if one is not a number),
    or by default every 10 minutes up to `end_s` seconds (the end itself if shorter)."""
    if at:
        return [float(x) for x in at.split(",") if x.strip()]
    return [float(m) for m in range(10, int(end_s // 60) + 1, 10)] or [round(end_s / 60, 1)]
