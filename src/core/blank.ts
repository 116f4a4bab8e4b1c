// What counts as a blank line, in the three senses the readers need: named
// apart, since they differ on purpose.

/** Nothing but spaces and tabs (or nothing): a blank line of a file or a block, as indentation sees it. */
export const isBlank = (text: string): boolean => /^[ \t]*$/.test(text);

/** Nothing but white space of any kind (`String.prototype.trim`'s): a line that shows nothing. */
export const isWhiteSpaceOnly = (text: string): boolean => text.trim() === '';

/**
 * A line of a diff's body with nothing but white space that is not a
 * context line: empty, or blank without a leading space (`" "` starts a
 * context line, even one of blanks). Read as an empty context line.
 */
export const isBareBlank = (text: string): boolean => text.trim() === '' && !text.startsWith(' ');
