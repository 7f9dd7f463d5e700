#!/usr/bin/env python3
"""Parse one OFX file with a Python peer library and print how many transactions it read.

Usage: peer_ofx.py ofxtools|ofxparse FILE   (run with the venv under bench-out/ that scripts/bench.sh makes)
"""
import sys


def with_ofxtools(path):
    from ofxtools.Parser import OFXTree
    tree = OFXTree()
    tree.parse(path)
    ofx = tree.convert()
    return sum(len(s.banktranlist) for s in ofx.statements)


def with_ofxparse(path):
    import ofxparse
    with open(path, "rb") as f:
        ofx = ofxparse.OfxParser.parse(f)
    return sum(len(a.statement.transactions) for a in ofx.accounts)


if __name__ == "__main__":
    tool, path = sys.argv[1], sys.argv[2]
    print({"ofxtools": with_ofxtools, "ofxparse": with_ofxparse}[tool](path))
