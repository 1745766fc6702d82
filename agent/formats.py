"""The output format a request asks for, and the result written in it or at the path it names (used by the pipeline,
the tiers and the chains alike)."""

from __future__ import annotations

from pathlib import Path

from ..errors import ValidationError
from ..function_lib.registry import run_tool
from ..lang import tr


def asked_format(request: str, plan=None) -> str | None:
    """The file format the request asks the result in ('… as GeoJSON'), from the plan or read from the text."""
    if plan is not None and getattr(plan, "output_format", None):
        return plan.output_format
    from ..reading.quantities import output_format
    from ..reading.text import fold

    asked = output_format(fold(request))
    return asked.code if asked else None


def write_in_format(fmt: str, ctx, registry, report) -> None:
    """Write the final result in the asked format (a save_result step), replacing the default GeoPackage."""
    from ..function_lib.geojson.conversion import FORMATS

    if not ctx.outputs:
        ctx.note(f"The result is an answer, not a layer, so no {fmt.upper()} file was written.")
        return
    final = ctx.outputs[-1]
    suffix = Path(final.path).suffix.lower().lstrip(".")
    if suffix == fmt or (fmt == "geojson" and suffix == "json"):
        return  # already written in that format (a tier-1 model may have saved it itself)
    if fmt not in FORMATS:
        raise ValidationError(
            f"GeoClerk cannot write {fmt.upper()} files.", fix="Ask for one of: " + ", ".join(FORMATS) + "."
        )
    if final.kind == "table":
        if fmt == "csv":
            return
        raise ValidationError(
            f"The result is a table ({Path(final.path).name}), which is written as CSV, not {fmt.upper()}.",
            fix="Ask for CSV, or for a result that is a layer.",
        )
    if final.kind != "vector":
        raise ValidationError(
            f"The result is a {final.kind} ({Path(final.path).name}), which cannot be written as {fmt.upper()}.",
            fix="Ask for a format of that kind of result, or leave the format out.",
        )
    params = {"layer": final.name, "format": fmt, "name": final.name}
    if "save_result" in registry:
        report.steps.append({"tool": "save_result", "params": params})
        run_tool(registry, "save_result", params, ctx)
    else:  # a registry without the storage tools (an embedding app's own): write it directly
        ctx.save_vector(ctx.gdf(final.name), final.name, fmt)
    ctx.outputs.remove(final)  # the asked format replaces the default file
    Path(final.path).unlink(missing_ok=True)
    written = Path(ctx.outputs[-1].path).name
    said = tr("Written as {format}: {file}.").format(format=fmt.upper(), file=written)
    report.answer = f"{report.answer} {said}".strip()


def write_to_path(path: str, ctx, report) -> None:
    """Put the final result at the file the request named ('save to results/out.csv'). A relative path lands in the
    output folder; an existing file is never overwritten (the result stays where it is, and the user is told)."""
    import shutil

    from ..function_lib.io import sidecars

    if not ctx.outputs:
        return
    final = ctx.outputs[-1]
    target = Path(path).expanduser()
    target = target if target.is_absolute() else ctx.out_dir / target
    if target.exists():
        ctx.note(
            tr("{target} exists already and was left alone; the result is {file}.").format(
                target=target, file=Path(final.path).name
            )
        )
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    source = Path(final.path)
    if source.suffix.lower() != target.suffix.lower():
        ctx.note(
            tr("The result is a {suffix} file; it was not converted to {file}.").format(
                suffix=source.suffix, file=target.name
            )
        )
        return
    for side in [source, *sidecars(source)]:
        shutil.move(str(side), str(target.with_suffix(side.suffix)))
    final.path = str(target)
    report.outputs = [o.to_json() for o in ctx.outputs]
    report.answer = f"{report.answer} {tr('Written to {target}.').format(target=target)}".strip()
