/**
 * How each real agent CLI is pointed at its local mock with no first-run
 * dialog: the config files it reads from a temporary $HOME (written here, so
 * nothing of the user's own is read or changed) and its environment. Learned
 * by running each CLI; the comments say what each entry skips.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ActivitySource } from '../../src/core/agents/activity.js';

export type Vendor = 'anthropic' | 'openai' | 'gemini';
export type LaneKind = 'claude' | 'codex' | 'gemini' | 'pi';

export interface AgentSetup {
  vendor: Vendor;
  /** Words after `--` for `new --agent <kind>` (and after the program for `new -- <program>`). */
  words: string[];
  /** The layer a turn's start and end are read from: the best one the kind has. */
  busySource: ActivitySource;
  idleSource: ActivitySource;
  /** Writes its config under `home` for `project` and the mock at `url`; returns its environment. */
  configure(home: string, project: string, url: string): Record<string, string>;
}

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, text, { mode: 0o600 });
};

/** The price pi is told for the mock's model (US dollars per million tokens), so the cost it records in its session file can be checked. */
export const PI_MOCK_PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

// A dummy key; Claude Code asks about a key from the environment unless its last 20 characters are approved.
const CLAUDE_KEY = 'sk-ant-api03-agent-board-lane-0123456789abcdefghij';

export const SETUPS: Record<LaneKind, AgentSetup> = {
  claude: {
    vendor: 'anthropic',
    words: [],
    busySource: 'hook', // UserPromptSubmit
    idleSource: 'hook', // Stop
    configure(home, project, url) {
      // Onboarding done, the key approved, the project folder trusted: no dialog before the prompt.
      write(
        path.join(home, '.claude.json'),
        JSON.stringify({
          hasCompletedOnboarding: true,
          customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
          projects: { [project]: { hasTrustDialogAccepted: true } },
        }),
      );
      return { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: CLAUDE_KEY, DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    },
  },
  codex: {
    vendor: 'openai',
    words: [],
    busySource: 'title', // its spinner: Codex has no hook at a turn's start
    idleSource: 'hook', // notify, agent-turn-complete
    configure(home, project, url) {
      // A provider with an API key from the environment (no sign-in menu) and the project trusted.
      write(
        path.join(home, '.codex', 'config.toml'),
        [
          'model = "mock-model"',
          'model_provider = "mock"',
          '',
          '[model_providers.mock]',
          'name = "mock"',
          `base_url = "${url}/v1"`,
          'env_key = "MOCK_API_KEY"',
          'wire_api = "responses"',
          '',
          `[projects.${JSON.stringify(project)}]`,
          'trust_level = "trusted"',
          '',
        ].join('\n'),
      );
      return { MOCK_API_KEY: 'mock-key' };
    },
  },
  gemini: {
    vendor: 'gemini',
    words: [],
    busySource: 'hook', // BeforeAgent
    idleSource: 'hook', // AfterAgent
    configure(home, project, url) {
      // API-key auth chosen (no auth dialog) and the project folder trusted (no folder-trust dialog).
      write(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      write(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
      return { GEMINI_API_KEY: 'mock-key', GOOGLE_GEMINI_BASE_URL: url, COLORTERM: 'truecolor' };
    },
  },
  pi: {
    vendor: 'openai',
    words: ['--provider', 'mock', '--model', 'mock-model'],
    busySource: 'screen', // pi has no hooks and a constant title
    idleSource: 'screen',
    configure(home, _project, url) {
      // A custom provider on the Chat Completions API; the mock knows no developer role or reasoning effort.
      const provider = { baseUrl: `${url}/v1`, api: 'openai-completions', apiKey: 'mock-key', compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: 'mock-model', cost: PI_MOCK_PRICE }] };
      write(path.join(home, '.pi', 'agent', 'models.json'), JSON.stringify({ providers: { mock: provider } }));
      // Without fd and rg on PATH it would try to download them first (no network in CI).
      return { PI_OFFLINE: '1' };
    },
  },
};
