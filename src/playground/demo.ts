// The session the playground opens with when the link carries none: one
// file and a reply whose four edits land exactly, one line off, fuzzily, and
// not at all.

import type { Session } from '../share/share.ts';

const source = `import sys

def greet(name):
    print("Hello, " + name)

def total(items, tax_rate):
    return calculate_total(items, tax_rate)

def main():
    greet(sys.argv[1])
    print(total([3, 4], 0.2))
`;

const reply = `Here are the changes.

greet.py
<editblock>
<<<<<<< REMOVE
3│def greet(name):
4│    print("Hello, " + name)
=======
 │def greet(name: str) -> None:
 │    print(f"Hello, {name}!")
>>>>>>> INSERT
</editblock>

The total is rounded (this edit cites line 6 and a stray semicolon):

greet.py
<editblock>
<<<<<<< REMOVE
6│    return calculate_total(items, tax_rate);
=======
 │    return round(calculate_total(items, tax_rate), 2)
>>>>>>> INSERT
</editblock>

greet.py
<editblock>
<<<<<<< REMOVE
8│def main():
=======
 │def main() -> None:
>>>>>>> INSERT
</editblock>

greet.py
<editblock>
<<<<<<< REMOVE
11│    print(grand_total([3, 4]))
=======
 │    print(grand_total([3, 4]), file=sys.stderr)
>>>>>>> INSERT
</editblock>
`;

export const demoSession: Session = {
  format: 'auto',
  files: [{ name: 'greet.py', text: source }],
  reply,
};
