/**
 * Counts the records of a CSV file as it streams in, chunk by chunk: a line break ends a record
 * unless it is inside a quoted field (a description may hold line breaks). A doubled quote inside a
 * quoted field leaves it and enters it again, which keeps the count right without telling the two apart.
 */
export function csvRecordCounter() {
  let quoted = false;
  let records = 0;
  return {
    /** Takes the next chunk of text; answers the records ended so far, the header included. */
    add(chunk: string): number {
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (c === 34 /* " */) quoted = !quoted;
        else if (c === 10 /* \n */ && !quoted) records += 1;
      }
      return records;
    },
  };
}
