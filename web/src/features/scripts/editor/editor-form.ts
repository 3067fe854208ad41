import { z } from 'zod';
import { SCRIPT_DESCRIPTION_MAX_LENGTH } from '@moonrelay/contract/constants';
import { VALIDATION } from '@moonrelay/contract/messages';
import { ScriptNameSchema, type CreateScriptRequest, type Script } from '@moonrelay/contract/scripts';

/** The editor's texts, word for word from the spec (sections 2, 4, 5 and 8). */
export const EDITOR_TEXT = {
  title: 'Script Editor',
  subtitleEdit: 'Edit your script',
  subtitleCreate: 'Create a new Lua script',
  // Ends with a new line, where the cursor starts: typing never lands inside the comment.
  defaultCode: '-- Write your Lua code here...\n',
  codePlaceholder: '-- Write your Lua code here...',
  manual: 'Manual Execution',
  autoExecute: 'Auto-Execute on Join',
  saveDialogTitle: 'Save Script Configuration',
  running: 'Executing script...',
  noOutput: 'No output',
} as const;

export const EDITOR_TOASTS = {
  nameRequired: { title: 'Name Required', description: 'Please enter a name for your script.' },
  noCode: { title: 'No Code', description: 'Please write some code before executing.' },
  saveFirst: { title: 'Save First', description: 'Please save your script before executing it.' },
  created: 'Script Created',
  updated: 'Script Updated',
  saved: 'Script Saved',
  savedWithErrors: 'Script Saved With Errors',
  formatted: 'Code Formatted',
  formatFailedTitle: 'Format Failed',
  formatFailed: 'Failed to format the code. Please try again.',
  failureTitle: 'Error',
  createFailed: 'Failed to create script. Please try again.',
  updateFailed: 'Failed to update script. Please try again.',
  saveFailed: 'Failed to save script. Please try again.',
} as const;

/** The spec's sentence, then the server's reason in parentheses when it gave one. */
export const withReason = (text: string, reason: string | undefined) => (reason ? `${text} (${reason})` : text);

export const EditorFormSchema = z.object({
  name: ScriptNameSchema,
  description: z.string().max(SCRIPT_DESCRIPTION_MAX_LENGTH, VALIDATION.scriptDescriptionTooLong),
  executionType: z.enum(['manual', 'auto']),
  code: z.string(),
});
export type EditorFormInput = z.input<typeof EditorFormSchema>;
export type EditorFormValues = z.output<typeof EditorFormSchema>;

export function formValuesOf(script: Script | null): EditorFormInput {
  if (!script) return { name: '', description: '', executionType: 'manual', code: EDITOR_TEXT.defaultCode };
  return {
    name: script.name,
    description: script.description ?? '',
    executionType: script.isAutoExecute ? 'auto' : 'manual',
    code: script.code,
  };
}

/** Name, description, code and execution type: what every save sends. */
export function scriptFieldsOf(values: EditorFormValues): CreateScriptRequest {
  return {
    name: values.name,
    description: values.description.trim() ? values.description : null,
    code: values.code,
    isAutoExecute: values.executionType === 'auto',
  };
}
