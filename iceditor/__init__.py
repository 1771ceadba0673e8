"""iceditor: the Qt editor and the command line, drawing and editing what engine/ computes."""
