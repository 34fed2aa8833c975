"""The kit: a build (build), its plan for every game (plan), the worker pool (pool,
workers), the output folder (outputs), progress."""
