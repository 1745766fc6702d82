# GeoClerk: `make demo` runs the main job on the sample data, `make test` runs the test suite.
# Both set up the environment first (idempotent; quick when done).

PY := .venv/bin/python
RUN := QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/runtime-$$(id -u) $(PY)
export QT_QPA_PLATFORM := offscreen

.PHONY: setup demo demo-model test test-model test-all lint router sample-data bench bench-router bench-functions bench-inputs \
        bench-tokens bench-sandbox bench-faults bench-scale bench-blind bench-model-verify bench-model model package translations clean \
        test-qgis bench-qgis

setup:
	@bash scripts/setup.sh
	@$(RUN) -c "from geoclerk.router import load_router; load_router()"  # trains the router only when stale

demo: setup
	@$(RUN) scripts/demo.py --out demo-output

demo-model: setup model  # the demo's requests with the local model (make model), one server for all
	@$(RUN) scripts/demo.py --out demo-output-model --local-model

test: setup
	$(RUN) -m pytest -m "not slow and not model" -q

test-model: setup model  # the real local model through tier 0 (confirmation), 1, 2 and chat, checked by value
	$(RUN) -m pytest -m model -q tests/test_real_model.py

test-all: setup
	$(RUN) -m pytest -m "not model" -q

test-qgis:  # the suite on a newer QGIS in a cached Debian 13 chroot (root; built once): make test-qgis NEW=3.44 (or 3.40)
	bash scripts/test_qgis.sh $(NEW)

bench-qgis:  # the Processing benchmark there: make bench-qgis NEW=3.44
	bash scripts/test_qgis.sh $(NEW) make bench-functions

lint: setup
	$(PY) -m ruff check .

router: setup  # retrains from dev/corpus/corpus.jsonl when the cached model is stale
	$(RUN) -m geoclerk.router.train

sample-data: setup
	$(RUN) scripts/make_sample_data.py

bench-router: setup  # held-out metrics and routing cost (target: median <= 3 ms, p99 <= 8 ms per route)
	$(RUN) -m geoclerk.bench.router

bench-functions: setup
	$(RUN) -m geoclerk.bench.functions

bench-tokens: setup
	$(RUN) -m geoclerk.bench.tokens

bench-sandbox: setup
	$(RUN) -m geoclerk.bench.sandbox

bench-faults: setup  # the fault suite (bench/faults.yaml) with and without the API check and the docs
	$(RUN) -m geoclerk.bench.faults

bench-inputs: setup  # a 2-million-row GeoPackage built in bulk and described (limit 2 s)
	$(RUN) -m geoclerk.bench.inputs

model:  # the local model and llama-server, cached in ~/.cache/geoclerk (once; about 10 minutes to build)
	$(PY) scripts/model.py

bench-model-verify: setup model  # draft and verify against the real local model
	$(RUN) -m geoclerk.bench.model_verify

bench-model: setup model  # the task suite through the real local model: tier 1, tier 2 and the hybrid (slow: CPU)
	$(RUN) -m geoclerk.bench.model_suite

bench-scale: setup  # large inputs: dask-geopandas vs GeoPandas in memory (SIZES=100000,1000000 RUNS=3; QGIS=--qgis)
	$(RUN) -m geoclerk.bench.scale --separate $(QGIS) $(if $(SIZES),--sizes $(SIZES)) \
		$(if $(POLYGON_SIZES),--polygon-sizes $(POLYGON_SIZES)) $(if $(RUNS),--runs $(RUNS)) $(if $(MAX_MB),--max-mb $(MAX_MB))

bench-blind: setup  # the blind request sets at tier 0 (tests/data/blind*/), graded by value checks
	$(RUN) -m geoclerk.bench.blind

bench: setup
	$(RUN) -m geoclerk.bench.run_all

package: setup router translations
	$(RUN) scripts/package.py

translations: setup
	$(RUN) scripts/translations.py

clean:
	rm -rf demo-output dist build bench/out tests/artifacts
