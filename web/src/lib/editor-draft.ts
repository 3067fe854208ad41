/**
 * Code handed to the Script Editor for a new script (the Runs page's "Open in editor" for a run of
 * custom code). It travels in the router's location state, since code may be far too long for an
 * address; the editor starts with it in place of its default code.
 */
export interface EditorDraft {
  draftCode: string;
}

export const editorDraftState = (code: string): EditorDraft => ({ draftCode: code });

/** The draft code in a location's state, if it holds one. */
export function draftCodeOf(state: unknown): string | undefined {
  const code = (state as Partial<EditorDraft> | null)?.draftCode;
  return typeof code === 'string' ? code : undefined;
}
