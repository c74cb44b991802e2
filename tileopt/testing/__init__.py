"""Helpers for tests and benchmarks that compare tileopt with the reference corpus."""
