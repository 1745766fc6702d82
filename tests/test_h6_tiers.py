"""QA4 fixes in the tiers: stale codegen files, empty replies, claimed-but-not-done work, text calls end to end."""

from __future__ import annotations

from pathlib import Path

from geoagent.tests import agent_toolkit
from geoagent.tests.agent_toolkit import TinyRouter, run

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

CODEGEN = TinyRouter(route="codegen", confidence=0.9)


def _code(body: str) -> dict:
    return {"content": f"```python\n{body.strip()}\n```"}


def test_files_of_a_failed_attempt_are_not_outputs(server, layers, tmp_path):
    junk = _code(
        """
import geopandas as gpd
gpd.read_file('schools.gpkg').head(2).to_file('junk_partial.geojson', driver='GeoJSON')
raise ValueError('half way')
"""
    )
    good = _code(
        """
import geopandas as gpd
s = gpd.read_file('schools.gpkg')
s.buffer(10).to_frame('geometry').to_file('good.geojson', driver='GeoJSON')
print('buffered', len(s))
"""
    )
    report = run(server, [junk, good], layers, tmp_path, router=CODEGEN)
    assert report.status == "ok", report.error
    assert [s["ok"] for s in report.steps] == [False, True]
    assert [Path(o["path"]).name for o in report.outputs] == ["good.geojson"]
