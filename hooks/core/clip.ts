/** What we quote back to the model stays short (Claude Code cuts output strings at 10,000 characters). */
export function clip(s: string, max = 160): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}
