"""Development tools kept out of the plugin ZIP: the router's training corpus and its generator (corpus/)."""
