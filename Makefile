# Thin wrappers: every target goes through tasks.py, which needs only Python 3.11+.
PYTHON ?= python3

.PHONY: all build test bench clean
all: build

build:
	$(PYTHON) tasks.py build

test:
	$(PYTHON) tasks.py test

bench:
	$(PYTHON) tasks.py bench

clean:
	rm -rf output
