/** What `--host` says when agent-board on the other machine fails (src/client/remote/ssh.ts remoteFailure). */
import { describe, expect, it } from 'vitest';
import { remoteFailure } from '../../src/client/remote/ssh.js';
import { EXIT } from '../../src/state/errors.js';

describe('remoteFailure', () => {
  it("passes the remote agent-board's exit code on, whichever of docs/cli.md it is", () => {
    for (const code of [EXIT.failure, EXIT.unknownSession, EXIT.sessionUnavailable, EXIT.notARepo, EXIT.workAtRisk, EXIT.cannotWrite]) {
      const e = remoteFailure('box', { code }, 'agent-board: something went wrong', 'no answer');
      expect(e.exitCode).toBe(code);
      expect(e.message).toBe('box: something went wrong');
    }
  });

  it('an unknown code, ssh failing, or no answer: the session cannot be reached (5)', () => {
    expect(remoteFailure('box', { code: 42 }, 'agent-board: odd', 'x')).toMatchObject({ exitCode: EXIT.sessionUnavailable, message: 'agent-board on box failed (exit 42): agent-board: odd' });
    expect(remoteFailure('box', { code: 255 }, 'Connection refused', 'x')).toMatchObject({ exitCode: EXIT.sessionUnavailable, sshFailed: true });
  });

  it("its hints work from here: --host for the commands that take it, ssh for the others", () => {
    const e = remoteFailure('me@box', { code: EXIT.sessionUnavailable }, "agent-board: api is lost (its runner is gone); bring it back with: agent-board revive api, or see agent-board ls", 'x');
    expect(e.message).toBe('me@box: api is lost (its runner is gone); bring it back with: ssh me@box agent-board revive api, or see agent-board ls --host me@box');
  });
});
