#!/usr/bin/env python3
"""Wraps an SVG in a page whose script measures, in the browser, every text
the SVG draws, and writes what lies outside the picture into the DOM.

Usage: svg-in-page.py picture.svg > page.html; then dump the page's DOM
with headless Chromium. The line it adds reads
"texts N outside M widest W of V": M texts not wholly inside the SVG's
viewBox (clipped for the reader), and the rightmost text edge W against
the picture's width V.
"""

import sys

SCRIPT = """
<script>
const svg = document.querySelector('svg');
const box = svg.viewBox.baseVal;
let outside = 0, widest = 0;
const texts = svg.querySelectorAll('text');
for (const text of texts) {
  const b = text.getBBox();
  widest = Math.max(widest, b.x + b.width);
  if (b.x < box.x || b.y < box.y || b.x + b.width > box.x + box.width ||
      b.y + b.height > box.y + box.height)
    ++outside;
}
const line = document.createElement('pre');
line.id = 'measured';
line.textContent = `texts ${texts.length} outside ${outside} widest ` +
                   `${Math.ceil(widest)} of ${box.width}`;
document.body.appendChild(line);
</script>
"""


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        picture = f.read()
    sys.stdout.write("<!DOCTYPE html>\n<html><body>\n" + picture + SCRIPT +
                     "</body></html>\n")


if __name__ == "__main__":
    main()
