import { ScriptEditorScreen } from '../../features/scripts/editor/ScriptEditorScreen.tsx';

/** /editor and /editor?id={id}: a lazy chunk, so Ace is only fetched when the editor opens. */
export default function EditorPage() {
  return <ScriptEditorScreen />;
}
