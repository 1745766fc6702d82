"""What a model reads and writes as text (below agent/ and codegen/, which both use it): token counts, tool calls
written as text, refusals written in words."""
