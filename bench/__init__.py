"""GeoClerk benchmarks: the task suite, the function library and the router, each writing bench/out/."""
