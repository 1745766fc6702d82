"""The agent: model client, function calling, Planner–Worker, tiers and the request pipeline."""
