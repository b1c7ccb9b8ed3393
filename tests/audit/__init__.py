"""An independent audit: every value worked out by hand, by brute force or by an independent
Monte Carlo, never copied from tapeline's own output."""
