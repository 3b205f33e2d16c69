// Unknown shapes: head + tail, and every line that reads as an error, with the raw path in the header.
import { errorPicks, type Pick, type Selection } from "./lines.js";

/** What render() charges per kept line: the newline and a possible "… N lines" marker. */
const LINE_COST = 15;

export function summarizeFallback(lines: readonly string[], budget: number): Selection {
  const picks: Pick[] = [...errorPicks(lines)];
  // Half the budget for the head, half for the tail.
  let used = 0;
  let head = 0;
  while (head < lines.length && used + (lines[head] ?? "").length + LINE_COST <= budget / 2) used += (lines[head++] ?? "").length + LINE_COST;
  used = 0;
  let tail = lines.length;
  while (tail > head && used + (lines[tail - 1] ?? "").length + LINE_COST <= budget / 2) used += (lines[--tail] ?? "").length + LINE_COST;
  for (let at = 0; at < Math.max(head, 1); at++) picks.push({ at, rank: 1 });
  for (let at = Math.max(tail, head); at < lines.length; at++) picks.push({ at, rank: 1 });
  if (tail === lines.length && lines.length > head) picks.push({ at: lines.length - 1, rank: 1 });
  return {
    type: "unknown",
    preface: [],
    picks,
    confidence: "low",
    why: "output shape not recognized: only its head and tail are shown",
    fallback: "read raw_evidence for the middle of the output",
  };
}
