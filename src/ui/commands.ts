import { Command } from '../core/board/keybindings.js';
import { sendChat } from './chat-commands.js';
import { diffCommand, openDiff } from './diff-commands.js';
import { answerDialog, explainSelected, sendPromptAnyway, sendPromptLine } from './io-commands.js';
import { reviveLost } from './revive-commands.js';
import type { CommandContext } from './command-context.js';
import { attachSelected, confirmKill, openNewForm, removeSelected, submitForm } from './lifecycle-commands.js';
import { hideWalkthrough } from './walkthrough-commands.js';
import { toggleResumeAfterLimit } from './limit-commands.js';

/** What each command does: a state change, or one of the session commands. `input`: the key's character (the digit of Answer). */
export function runCommand(cmd: Command, c: CommandContext, input = ''): void {
  const { dispatch } = c;
  if (c.state.overlay.kind === 'diff') return diffCommand(cmd, c);
  switch (cmd) {
    case Command.Up: return dispatch({ type: 'move', by: -1 });
    case Command.Down: return dispatch({ type: 'move', by: 1 });
    case Command.PageUp: return dispatch({ type: 'page', by: -1 });
    case Command.PageDown: return dispatch({ type: 'page', by: 1 });
    case Command.First: return dispatch({ type: 'jump', to: 'first' });
    case Command.Last: return dispatch({ type: 'jump', to: 'last' });
    case Command.Attach: return attachSelected(c);
    case Command.New: return openNewForm(c);
    case Command.Kill: return dispatch({ type: 'open-kill' });
    case Command.Remove: return removeSelected(c);
    case Command.Rename: return dispatch({ type: 'open-rename' });
    case Command.Chat: return dispatch({ type: 'open-chat' });
    case Command.Filter: return dispatch({ type: 'open-filter' });
    case Command.Help: return dispatch({ type: 'open-help' });
    case Command.Quit: return c.control.leave({ kind: 'quit' });
    case Command.Clear: return dispatch({ type: 'clear' });
    case Command.Submit:
      if (c.state.overlay.kind === 'filter') return dispatch({ type: 'accept-filter' });
      if (c.state.overlay.kind === 'prompt') return sendPromptLine(c);
      return c.state.overlay.kind === 'chat' ? sendChat(c) : submitForm(c);
    case Command.Cancel: return dispatch({ type: 'close' });
    case Command.NextField: return dispatch({ type: 'focus-field', by: 1 });
    case Command.PrevField: return dispatch({ type: 'focus-field', by: -1 });
    case Command.DeleteBack: return dispatch({ type: 'delete-back' });
    case Command.ClearField: return dispatch({ type: 'clear-field' });
    case Command.Confirm: return confirmKill(c);
    case Command.Answer: return answerDialog(c, input);
    case Command.TypeInto: return dispatch({ type: 'open-typing' });
    case Command.Prompt: return dispatch({ type: 'open-prompt' });
    case Command.Mark: return dispatch({ type: 'toggle-mark' });
    case Command.SendAnyway: return sendPromptAnyway(c);
    case Command.Explain: return explainSelected(c);
    case Command.Diff: return openDiff(c);
    case Command.ReviveLost: return reviveLost(c);
    case Command.ResumeAfterLimit: return toggleResumeAfterLimit(c);
    case Command.HideWalkthrough: return hideWalkthrough(c);
    case Command.ToggleUsage: return dispatch({ type: 'toggle-usage' });
    case Command.NextChoice: return dispatch({ type: 'new-choose', by: 1 });
    case Command.PrevChoice: return dispatch({ type: 'new-choose', by: -1 });
    // The diff view's own commands: diffCommand above handles them while it is open; elsewhere they do nothing.
    case Command.Comment:
    case Command.NextFile:
    case Command.NextHunk:
    case Command.PrevFile:
    case Command.PrevHunk:
    case Command.SendComments:
      return;
  }
}
