"""From a model to attention rows: loading, the text, head extraction, row blocks, the device."""
