// The real codex CLI through agent-board against a local mock (test/agents/lane-suite.ts).
import { agentLane } from './lane-suite.js';

agentLane('codex');
