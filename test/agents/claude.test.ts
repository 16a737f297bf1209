// The real claude CLI through agent-board against a local mock (test/agents/lane-suite.ts).
import { agentLane } from './lane-suite.js';

agentLane('claude');
