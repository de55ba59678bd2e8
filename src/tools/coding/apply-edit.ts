/**
 * One edit of Claude Code's Edit / MultiEdit: replace `old_string` by `new_string`, exactly
 * one occurrence unless `replace_all`. The errors say what to do, as Claude Code's do: an
 * old_string that is not there, or is there more than once without replace_all, or equals
 * new_string, changes nothing.
 */
import { HookwiseError } from "../../errors/hookwise-error.js";

export interface TextEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

export function applyEdit(text: string, edit: TextEdit, where: string): string {
  const { old_string: before, new_string: after } = edit;
  if (before === after)
    throw new HookwiseError(`${where}: old_string and new_string are the same; there is nothing to change`);
  if (before === "") {
    if (text !== "")
      throw new HookwiseError(`${where}: old_string is empty; only an empty or new file can take it`);
    return after;
  }
  const count = text.split(before).length - 1;
  if (count === 0) throw new HookwiseError(`${where}: old_string was not found in the file`);
  if (count > 1 && !edit.replace_all)
    throw new HookwiseError(
      `${where}: old_string occurs ${count} times; give more surrounding text to make it unique, or set replace_all`,
    );
  return edit.replace_all ? text.split(before).join(after) : text.replace(before, () => after);
}
