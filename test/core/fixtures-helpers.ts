// A large source file of near-identical functions, 11 lines each: only the
// header of each is unique; `const result = [];`, `return result;`, `}` and
// the blank line are in every function, the `push` line in one of 37. The
// closest-candidate tests search it for a block with one line mistyped.

export function helpers(functions: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < functions; k++) {
    out.push(
      `function helper${k}(value, options) {`,
      '  const result = [];',
      '  if (value == null) {',
      '    return result;',
      '  }',
      '  for (let i = 0; i < value.length; i++) {',
      `    result.push(transform${k % 37}(value[i], options));`,
      '  }',
      '  return result;',
      '}',
      '',
    );
  }
  return out;
}
