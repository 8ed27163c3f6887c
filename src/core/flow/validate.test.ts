import { describe, expect, it } from 'vitest';
import { CREATION_CHECKS } from './creation-checks';
import type { FlowProblem } from './problems';
import { DOCUMENT_TYPES } from '../documents/types';
import { validateFlow } from './validate';

type RawNode = Record<string, unknown>;

/** A valid flow touching most node types; each case below breaks one rule of a fresh copy. */
function base(): RawNode[] {
  return [
    { id: 'start', type: 'start', outcome: 'perm' },
    {
      id: 'perm',
      type: 'permissions',
      outcomes: { permissionsGranted: 'live', permissionsDenied: 'fail' },
    },
    { id: 'live', type: 'liveness_detection', outcomes: { livenessDetected: 'doc' } },
    { id: 'doc', type: 'document_scan', outcomes: { scanSuccess: 'cmp' } },
    { id: 'cmp', type: 'face_compare', outcomes: { match: 'chat' } },
    {
      id: 'chat',
      type: 'conversation',
      prompt: 'Say: Shall we continue?',
      outcomes: [
        { id: 'yes', condition: 'agrees', targetNodeId: 'mail' },
        { id: 'no', condition: '', targetNodeId: 'fail' },
      ],
    },
    { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'otp' } },
    { id: 'otp', type: 'two_factor_email', outcomes: { verified: 'check' } },
    {
      id: 'check',
      type: 'data_validation',
      validation: { field: 'extractedData.email', action: 'exists' },
      outcomes: [
        { id: 'ok', condition: 'passed', targetNodeId: 'done' },
        { id: 'ko', condition: 'failed', targetNodeId: 'fail' },
      ],
    },
    { id: 'done', type: 'end' },
    { id: 'fail', type: 'end' },
  ];
}

const indexOf = (flow: RawNode[], id: string) => flow.findIndex((n) => n.id === id);
const node = (flow: RawNode[], id: string) => flow[indexOf(flow, id)] as RawNode;
const KNOWN =
  'start, end, conversation, recognition, liveness_detection, document_scan, face_scan, ' +
  'face_compare, enter_email, two_factor_email, two_factor_sms, data_validation, permissions, field_condition, external_call';

/** A flow with `n` nodes in a single chain: start → conversations → end. */
function chain(n: number): RawNode[] {
  const ids = Array.from({ length: n }, (_, i) => `n${i}`);
  return ids.map((id, i) => {
    if (i === 0) return { id, type: 'start', outcome: ids[1] };
    if (i === n - 1) return { id, type: 'end' };
    return { id, type: 'permissions', outcomes: { permissionsGranted: ids[i + 1] } };
  });
}

interface Case {
  rule: string;
  flow: () => unknown;
  problems: FlowProblem[];
}

const cases: Case[] = [
  {
    rule: 'the flow must be an array',
    flow: () => 'start → end',
    problems: [{ path: 'flow', message: 'flow must be an array of nodes' }],
  },
  {
    rule: 'the {nodes, edges} form gets its own message',
    flow: () => ({ nodes: base(), edges: [{ id: 'e1', source: 'start', target: 'perm' }] }),
    problems: [
      {
        path: 'flow',
        message:
          'flow must be an array of nodes; the {nodes, edges} form is not accepted: send the ' +
          'nodes as an array, each node naming its targets in its own outcomes',
      },
    ],
  },
  {
    rule: 'a start node is required',
    flow: () => base().slice(1),
    problems: [{ path: 'flow', message: 'the flow has no start node; it needs exactly one' }],
  },
  {
    rule: 'only one start node',
    flow: () => [...base(), { id: 'start2', type: 'start', outcome: 'done' }],
    problems: [
      {
        path: 'flow[11]',
        nodeId: 'start2',
        message: 'a second start node: a flow has exactly one (the first is flow[0])',
      },
    ],
  },
  {
    rule: 'an end node is required',
    flow: () => [
      { id: 'start', type: 'start', outcome: 'perm' },
      { id: 'perm', type: 'permissions', outcomes: {} },
    ],
    problems: [{ path: 'flow', message: 'the flow has no end node; it needs at least one' }],
  },
  {
    rule: 'no cycles, naming the nodes of the cycle in order',
    flow: () => {
      const flow = base();
      node(flow, 'mail').outcomes = { emailEntered: 'otp', canceled: 'live' };
      return flow;
    },
    problems: [
      {
        path: 'flow[6].outcomes.canceled',
        nodeId: 'mail',
        message: 'cycle: live → doc → cmp → chat → mail → live; a flow only moves forward',
      },
    ],
  },
  {
    rule: 'no node may lead to itself',
    flow: () => {
      const flow = base();
      node(flow, 'otp').outcomes = { verified: 'check', error: 'otp' };
      return flow;
    },
    problems: [
      {
        path: 'flow[7].outcomes.error',
        nodeId: 'otp',
        message: 'cycle: otp → otp; a flow only moves forward',
      },
    ],
  },
  {
    rule: 'every outcome target exists',
    flow: () => {
      const flow = base();
      node(flow, 'live').outcomes = { livenessDetected: 'doc', noFace: 'retry' };
      return flow;
    },
    problems: [
      { path: 'flow[2].outcomes.noFace', nodeId: 'live', message: "no node has the id 'retry'" },
    ],
  },
  {
    rule: 'the start target exists',
    flow: () => {
      const flow = base();
      node(flow, 'start').outcome = 'nowhere';
      return flow;
    },
    problems: [
      { path: 'flow[0].outcome', nodeId: 'start', message: "no node has the id 'nowhere'" },
    ],
  },
  {
    rule: 'a conditional outcome target exists',
    flow: () => {
      const flow = base();
      (node(flow, 'chat').outcomes as RawNode[])[1] = { id: 'no', targetNodeId: 'bye' };
      return flow;
    },
    problems: [
      {
        path: 'flow[5].outcomes[1].targetNodeId',
        nodeId: 'chat',
        message: "no node has the id 'bye'",
      },
    ],
  },
  {
    rule: 'every node is reachable from the start',
    flow: () => [...base(), { id: 'orphan', type: 'face_scan', outcomes: { passed: 'done' } }],
    problems: [
      {
        path: 'flow[11]',
        nodeId: 'orphan',
        message:
          "node 'orphan' cannot be reached from the start node; route an outcome to it or remove it",
      },
    ],
  },
  {
    rule: 'required fields are present (conversation prompt)',
    flow: () => {
      const flow = base();
      delete node(flow, 'chat').prompt;
      return flow;
    },
    problems: [{ path: 'flow[5].prompt', nodeId: 'chat', message: 'prompt is required' }],
  },
  {
    rule: 'required fields are present (start outcome)',
    flow: () => {
      const flow = base();
      delete node(flow, 'start').outcome;
      return flow;
    },
    problems: [{ path: 'flow[0].outcome', nodeId: 'start', message: 'outcome is required' }],
  },
  {
    rule: 'required fields are present (outcomes)',
    flow: () => {
      const flow = base();
      node(flow, 'done').type = 'end';
      flow.push({ id: 'extra', type: 'face_scan' });
      node(flow, 'cmp').outcomes = { match: 'chat', noMatch: 'extra' };
      return flow;
    },
    problems: [{ path: 'flow[11].outcomes', nodeId: 'extra', message: 'outcomes is required' }],
  },
  {
    rule: 'fields are typed',
    flow: () => {
      const flow = base();
      node(flow, 'otp').otpLength = '6';
      return flow;
    },
    problems: [
      { path: 'flow[7].otpLength', nodeId: 'otp', message: 'otpLength must be a whole number' },
    ],
  },
  {
    rule: 'booleans are booleans',
    flow: () => {
      const flow = base();
      node(flow, 'chat').doesNotRequireReply = 'yes';
      return flow;
    },
    problems: [
      {
        path: 'flow[5].doesNotRequireReply',
        nodeId: 'chat',
        message: 'doesNotRequireReply must be true or false',
      },
    ],
  },
  {
    rule: 'otpLength is 4–8',
    flow: () => {
      const flow = base();
      node(flow, 'otp').otpLength = 9;
      return flow;
    },
    problems: [
      {
        path: 'flow[7].otpLength',
        nodeId: 'otp',
        message: 'otpLength must be from 4 to 8 (got 9)',
      },
    ],
  },
  {
    rule: 'expirySeconds is 60–3600',
    flow: () => {
      const flow = base();
      node(flow, 'otp').expirySeconds = 30;
      return flow;
    },
    problems: [
      {
        path: 'flow[7].expirySeconds',
        nodeId: 'otp',
        message: 'expirySeconds must be from 60 to 3600 (got 30)',
      },
    ],
  },
  {
    rule: 'challenges is 1–5',
    flow: () => {
      const flow = base();
      node(flow, 'live').challenges = 6;
      return flow;
    },
    problems: [
      {
        path: 'flow[2].challenges',
        nodeId: 'live',
        message: 'challenges must be from 1 to 5 (got 6)',
      },
    ],
  },
  {
    rule: 'a camera node has 1–5 attempts',
    flow: () => {
      const flow = base();
      node(flow, 'live').maxAttempts = 6;
      return flow;
    },
    problems: [
      {
        path: 'flow[2].maxAttempts',
        nodeId: 'live',
        message: 'maxAttempts must be from 1 to 5 (got 6)',
      },
    ],
  },
  {
    rule: 'similarityThreshold is 0–1',
    flow: () => {
      const flow = base();
      node(flow, 'cmp').similarityThreshold = 1.5;
      return flow;
    },
    problems: [
      {
        path: 'flow[4].similarityThreshold',
        nodeId: 'cmp',
        message: 'similarityThreshold must be from 0 to 1 (got 1.5)',
      },
    ],
  },
  {
    rule: 'prompts are at most 2,000 characters',
    flow: () => {
      const flow = base();
      node(flow, 'chat').prompt = 'a'.repeat(2001);
      return flow;
    },
    problems: [
      {
        path: 'flow[5].prompt',
        nodeId: 'chat',
        message: 'prompt must be at most 2000 characters (it has 2001)',
      },
    ],
  },
  {
    rule: 'a flow has at most 200 nodes',
    flow: () => chain(201),
    problems: [{ path: 'flow', message: 'the flow has 201 nodes; at most 200 are allowed' }],
  },
  {
    rule: 'outcome keys are known for the node type',
    flow: () => {
      const flow = base();
      node(flow, 'doc').outcomes = { scanSuccess: 'cmp', passed: 'fail' };
      return flow;
    },
    problems: [
      {
        path: 'flow[3].outcomes.passed',
        nodeId: 'doc',
        message:
          "unknown outcome 'passed' for a document_scan node; its outcomes are scanSuccess, userCancelled, scanTimeout",
      },
    ],
  },
  {
    rule: 'fields are known for the node type',
    flow: () => {
      const flow = base();
      node(flow, 'otp').otpLenght = 6;
      return flow;
    },
    problems: [
      {
        path: 'flow[7].otpLenght',
        nodeId: 'otp',
        message:
          "unknown field 'otpLenght' for a two_factor_email node; its fields are id, type, otpLength, " +
          'expirySeconds, maxAttempts, resendAfterSeconds, showUI, emailTemplate, outcomes',
      },
    ],
  },
  {
    rule: 'an end node has no outcomes',
    flow: () => {
      const flow = base();
      node(flow, 'done').outcomes = {};
      return flow;
    },
    problems: [
      {
        path: 'flow[9].outcomes',
        nodeId: 'done',
        message: "unknown field 'outcomes' for an end node; its fields are id, type",
      },
    ],
  },
  {
    rule: 'ids are unique',
    flow: () => {
      const flow = base();
      node(flow, 'fail').id = 'done';
      node(flow, 'perm').outcomes = { permissionsGranted: 'live', permissionsDenied: 'done' };
      (node(flow, 'chat').outcomes as RawNode[])[1] = { id: 'no', targetNodeId: 'done' };
      (node(flow, 'check').outcomes as RawNode[])[1] = { id: 'ko', targetNodeId: 'done' };
      return flow;
    },
    problems: [
      {
        path: 'flow[10].id',
        nodeId: 'done',
        message: "duplicate node id 'done': flow[9] has it too",
      },
    ],
  },
  {
    rule: 'ids are non-empty',
    flow: () => [...base(), { id: '', type: 'end' }],
    problems: [{ path: 'flow[11].id', message: 'id must not be empty' }],
  },
  {
    rule: 'ids are present',
    flow: () => [...base(), { type: 'end' }],
    problems: [{ path: 'flow[11].id', message: 'id is required' }],
  },
  {
    rule: 'ids are strings',
    flow: () => [...base(), { id: 7, type: 'end' }],
    problems: [{ path: 'flow[11].id', message: 'id must be a string (got 7)' }],
  },
  {
    rule: "ids do not start with '#'",
    flow: () => [...base(), { id: '#x', type: 'end' }],
    problems: [{ path: 'flow[11].id', nodeId: '#x', message: "id may not start with '#'" }],
  },
  {
    rule: "the id '__proto__' is reserved",
    flow: () => [...base(), { id: '__proto__', type: 'end' }],
    problems: [{ path: 'flow[11].id', nodeId: '__proto__', message: "id '__proto__' is reserved" }],
  },
  {
    rule: 'ids are at most 100 characters',
    flow: () => [...base(), { id: 'x'.repeat(101), type: 'end' }],
    problems: [
      {
        path: 'flow[11].id',
        nodeId: 'x'.repeat(101),
        message: 'id must be at most 100 characters (it has 101)',
      },
    ],
  },
  {
    rule: 'an unknown type is one problem listing the known types',
    flow: () => {
      const flow = base();
      node(flow, 'mail').type = 'email_input';
      return flow;
    },
    problems: [
      {
        path: 'flow[6].type',
        nodeId: 'mail',
        message: `unknown node type 'email_input'; the known types are ${KNOWN}`,
      },
    ],
  },
  {
    rule: 'the type is required',
    flow: () => {
      const flow = base();
      delete node(flow, 'mail').type;
      return flow;
    },
    problems: [
      { path: 'flow[6].type', nodeId: 'mail', message: `type is required: one of ${KNOWN}` },
    ],
  },
  {
    rule: 'a node is an object',
    flow: () => [...base(), null],
    problems: [
      {
        path: 'flow[11]',
        message: 'a node must be an object with id, type and outcomes (got null)',
      },
    ],
  },
  {
    rule: 'conditional outcome ids are unique within the node',
    flow: () => {
      const flow = base();
      (node(flow, 'chat').outcomes as RawNode[])[1] = { id: 'yes', targetNodeId: 'fail' };
      return flow;
    },
    problems: [
      {
        path: 'flow[5].outcomes[1].id',
        nodeId: 'chat',
        message: "outcome id 'yes' is used twice in this node (also outcomes[0])",
      },
    ],
  },
  {
    rule: 'a conditional node has at least one outcome',
    flow: () => {
      const flow = base();
      node(flow, 'chat').outcomes = [];
      return flow;
    },
    problems: [
      { path: 'flow[5].outcomes', nodeId: 'chat', message: 'outcomes must have at least 1 item' },
    ],
  },
  {
    // Like a fixed outcome left out: choosing it ends the session incomplete (decisions.md).
    rule: 'a conditional outcome may have no target',
    flow: () => {
      const flow = base();
      (node(flow, 'chat').outcomes as RawNode[])[1] = { id: 'no', condition: '' };
      return flow;
    },
    problems: [],
  },
  {
    rule: 'data_validation conditions are passed, failed or empty',
    flow: () => {
      const flow = base();
      (node(flow, 'check').outcomes as RawNode[])[1] = {
        id: 'ko',
        condition: 'the email is wrong',
        targetNodeId: 'fail',
      };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].outcomes[1].condition',
        nodeId: 'check',
        message:
          "condition must be 'passed', 'failed' or empty (got 'the email is wrong'): a data_validation check yields passed or failed",
      },
    ],
  },
  {
    rule: 'data_validation field names the data it reads',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = { field: 'email', action: 'exists' };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.field',
        nodeId: 'check',
        message:
          "validation.field must be a path starting with providedData., extractedData. or metadata. (got 'email')",
      },
    ],
  },
  {
    rule: 'data_validation action is known',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = { field: 'providedData.email', action: 'isIban' };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.action',
        nodeId: 'check',
        message:
          "validation.action must be one of exists, equals, notEquals, contains, matches, minAge, maxAge, notExpired, sameAs, isEmail, isPhone, isNumber, isDate (got 'isIban')",
      },
    ],
  },
  {
    rule: 'data_validation value is given where the action needs it',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = { field: 'extractedData.dateOfBirth', action: 'minAge' };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message: 'value is required for the action minAge',
      },
    ],
  },
  {
    rule: 'data_validation value is left out where the action does not use it',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = { field: 'extractedData.email', action: 'exists', value: 1 };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message: 'value is not used by the action exists; remove it',
      },
    ],
  },
  {
    rule: 'data_validation ages are whole years',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = {
        field: 'extractedData.dateOfBirth',
        action: 'minAge',
        value: 'eighteen',
      };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message: 'value must be a whole number of years from 0 to 150 (got eighteen)',
      },
    ],
  },
  {
    rule: 'data_validation regular expressions compile',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = {
        field: 'providedData.email',
        action: 'matches',
        value: '([a-z]+',
      };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message:
          'value is not a valid RE2 regular expression: missing closing ): `([a-z]+` (RE2 has no lookahead, lookbehind or backreferences)',
      },
    ],
  },
  {
    rule: 'data_validation patterns are RE2: no lookahead',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = {
        field: 'providedData.email',
        action: 'matches',
        value: '^(?!.*@evil\\.com$).+@.+$',
      };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message:
          'value is not a valid RE2 regular expression: invalid or unsupported Perl syntax: `(?!` (RE2 has no lookahead, lookbehind or backreferences)',
      },
    ],
  },
  {
    rule: 'data_validation patterns are RE2: no backreferences',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = {
        field: 'providedData.code',
        action: 'matches',
        value: '^(\\d)\\1$',
      };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message:
          'value is not a valid RE2 regular expression: invalid escape sequence: `\\1` (RE2 has no lookahead, lookbehind or backreferences)',
      },
    ],
  },
  {
    rule: 'data_validation patterns are at most 500 characters',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = {
        field: 'providedData.code',
        action: 'matches',
        value: 'a'.repeat(501),
      };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message: 'value is 501 characters long; a matches pattern may have at most 500',
      },
    ],
  },
  {
    rule: 'data_validation sameAs names another field',
    flow: () => {
      const flow = base();
      node(flow, 'check').validation = {
        field: 'extractedData.lastName',
        action: 'sameAs',
        value: 'Smith',
      };
      return flow;
    },
    problems: [
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message:
          'value must name the other field, as providedData.<key>, extractedData.<key>, metadata.<key> (got Smith)',
      },
    ],
  },
  {
    rule: 'face_compare providedData sources name their key',
    flow: () => {
      const flow = base();
      node(flow, 'cmp').sourceA = { source: 'providedData' };
      return flow;
    },
    problems: [
      {
        path: 'flow[4].sourceA.providedDataKey',
        nodeId: 'cmp',
        message: 'providedDataKey is required when sourceA.source is providedData',
      },
    ],
  },
  {
    rule: 'face_compare compares two different sources',
    flow: () => {
      const flow = base();
      node(flow, 'cmp').sourceA = { source: 'documentPhoto' };
      return flow;
    },
    problems: [
      {
        path: 'flow[4].sourceB',
        nodeId: 'cmp',
        message:
          'sourceA and sourceB are the same source (documentPhoto); compare two different ones',
      },
    ],
  },
  {
    rule: 'face_compare sources are known',
    flow: () => {
      const flow = base();
      node(flow, 'cmp').sourceA = { source: 'selfie' };
      return flow;
    },
    problems: [
      {
        path: 'flow[4].sourceA.source',
        nodeId: 'cmp',
        message:
          "sourceA.source must be one of sessionVideo, faceScan, documentPhoto, providedData (got 'selfie')",
      },
    ],
  },
  {
    rule: 'OTP templates hold the code placeholder',
    flow: () => {
      const flow = base();
      node(flow, 'otp').emailTemplate = 'Here is your code.';
      return flow;
    },
    problems: [
      {
        path: 'flow[7].emailTemplate',
        nodeId: 'otp',
        message: 'emailTemplate must contain {{code}} where the code goes',
      },
    ],
  },
  {
    rule: 'document types are known',
    flow: () => {
      const flow = base();
      node(flow, 'doc').allowedDocumentTypes = ['passport', 'library-card'];
      return flow;
    },
    problems: [
      {
        path: 'flow[3].allowedDocumentTypes[1]',
        nodeId: 'doc',
        message: `allowedDocumentTypes[1] must be one of ${DOCUMENT_TYPES.join(', ')} (got 'library-card')`,
      },
    ],
  },
  {
    rule: 'document types are not repeated',
    flow: () => {
      const flow = base();
      node(flow, 'doc').allowedDocumentTypes = ['id', 'id'];
      return flow;
    },
    problems: [
      {
        path: 'flow[3].allowedDocumentTypes',
        nodeId: 'doc',
        message: 'allowedDocumentTypes must not list an item twice',
      },
    ],
  },
  {
    rule: 'scanningMode is single or automatic',
    flow: () => {
      const flow = base();
      node(flow, 'doc').scanningMode = 'manual';
      return flow;
    },
    problems: [
      {
        path: 'flow[3].scanningMode',
        nodeId: 'doc',
        message: "scanningMode must be one of single, automatic (got 'manual')",
      },
    ],
  },
  {
    rule: 'permission options are known',
    flow: () => {
      const flow = base();
      node(flow, 'perm').permissions = { camera: true, location: true };
      return flow;
    },
    problems: [
      {
        path: 'flow[1].permissions.location',
        nodeId: 'perm',
        message: "unknown field 'location'; the fields here are camera, microphone",
      },
    ],
  },
];

describe('validateFlow: one broken rule at a time', () => {
  it('accepts the base flow', () => {
    expect(validateFlow(base())).toEqual([]);
    expect(validateFlow(base(), CREATION_CHECKS)).toEqual([]);
  });

  // As POST /sessions checks a flow: the rules a flow needs to run, and the creation checks.
  it.each(cases)('$rule', ({ flow, problems }) => {
    expect(validateFlow(flow(), CREATION_CHECKS)).toEqual(problems);
  });

  it('leaves matches patterns to the creation checks, so a stored flow still runs', () => {
    const flow = base();
    node(flow, 'check').validation = {
      field: 'providedData.email',
      action: 'matches',
      value: '^(?!admin@)',
    };
    expect(validateFlow(flow)).toEqual([]);
    expect(validateFlow(flow, CREATION_CHECKS)).toHaveLength(1);
  });

  it('says nothing more about a pattern the schema already refused', () => {
    const flow = base();
    node(flow, 'check').validation = {
      field: 'providedData.email',
      action: 'matches',
      value: '('.repeat(2001),
    };
    expect(validateFlow(flow, CREATION_CHECKS)).toEqual([
      {
        path: 'flow[8].validation.value',
        nodeId: 'check',
        message: expect.stringMatching(/^validation.value must be a string or a number/),
      },
    ]);
  });
});

describe('validateFlow: everything at once', () => {
  it('reports every problem of a flow with several, in node order', () => {
    const flow = base();
    node(flow, 'otp').otpLength = 3;
    node(flow, 'otp').outcomes = { verified: 'check', passed: 'fail' };
    node(flow, 'mail').outcomes = { emailEntered: 'otp', canceled: 'perm' };
    node(flow, 'live').outcomes = { livenessDetected: 'doc', noFace: 'ghost' };
    flow.push(
      { id: 'perm', type: 'end' },
      { id: 'x', type: 'selfie' },
      { id: 'start2', type: 'start', outcome: 'done' },
    );
    expect(validateFlow(flow)).toEqual([
      { path: 'flow[2].outcomes.noFace', nodeId: 'live', message: "no node has the id 'ghost'" },
      {
        path: 'flow[6].outcomes.canceled',
        nodeId: 'mail',
        message: 'cycle: perm → live → doc → cmp → chat → mail → perm; a flow only moves forward',
      },
      {
        path: 'flow[7].otpLength',
        nodeId: 'otp',
        message: 'otpLength must be from 4 to 8 (got 3)',
      },
      {
        path: 'flow[7].outcomes.passed',
        nodeId: 'otp',
        message:
          "unknown outcome 'passed' for a two_factor_email node; its outcomes are verified, delivery_failed, failed_unverified, cancelled, error",
      },
      {
        path: 'flow[11].id',
        nodeId: 'perm',
        message: "duplicate node id 'perm': flow[1] has it too",
      },
      {
        path: 'flow[12].type',
        nodeId: 'x',
        message: `unknown node type 'selfie'; the known types are ${KNOWN}`,
      },
      {
        path: 'flow[13]',
        nodeId: 'start2',
        message: 'a second start node: a flow has exactly one (the first is flow[0])',
      },
    ]);
  });

  it('says nothing more inside a field it already refused', () => {
    const flow = base();
    node(flow, 'chat').outcomes = 'yes → mail';
    expect(validateFlow(flow)).toEqual([
      { path: 'flow[5].outcomes', nodeId: 'chat', message: 'outcomes must be an array' },
    ]);
  });

  it('judges reachability once every route can be followed', () => {
    const flow = [...base(), { id: 'orphan', type: 'end' }];
    node(flow, 'live').outcomes = { livenessDetected: 'dok' };
    expect(validateFlow(flow)).toEqual([
      {
        path: 'flow[2].outcomes.livenessDetected',
        nodeId: 'live',
        message: "no node has the id 'dok'",
      },
    ]);
    node(flow, 'live').outcomes = { livenessDetected: 'doc' };
    expect(validateFlow(flow)).toEqual([
      {
        path: 'flow[11]',
        nodeId: 'orphan',
        message:
          "node 'orphan' cannot be reached from the start node; route an outcome to it or remove it",
      },
    ]);
  });

  it('lists at most 100 problems and counts the rest', () => {
    const problems = validateFlow(Array.from({ length: 150 }, () => 0));
    expect(problems).toHaveLength(101);
    expect(problems[0]).toEqual({
      path: 'flow',
      message: 'the flow has no start node; it needs exactly one',
    });
    expect(problems[100]).toEqual({ path: 'flow', message: '… and 52 more problems not listed' });
  });

  it('accepts a flow of exactly 200 nodes', () => {
    expect(validateFlow(chain(200))).toEqual([]);
  });

  it('accepts every option of every node type at its bounds', () => {
    const flow: RawNode[] = [
      { id: 'start', type: 'start', outcome: 'p' },
      {
        id: 'p',
        type: 'permissions',
        prompt: 'Say: Allow the camera, please.',
        permissions: { camera: true, microphone: false },
        outcomes: { permissionsGranted: 'r' },
      },
      {
        id: 'r',
        type: 'recognition',
        similarityThreshold: 0,
        outcomes: { recognized: 'l', newUser: 'l' },
      },
      {
        id: 'l',
        type: 'liveness_detection',
        challenges: 5,
        timeoutSeconds: 600,
        maxAttempts: 5,
        outcomes: { livenessDetected: 'd' },
      },
      {
        id: 'd',
        type: 'document_scan',
        allowedDocumentTypes: ['dl'],
        scanningMode: 'automatic',
        showTorchButton: false,
        showCameraSwitch: false,
        showMirrorCameraButton: false,
        timeoutSeconds: 10,
        outcomes: { scanSuccess: 'f' },
      },
      {
        id: 'f',
        type: 'face_scan',
        captureInstructions: 'Look straight ahead.',
        requireLivenessChallenge: true,
        referenceImageKey: 'referenceImage',
        similarityThreshold: 1,
        maxAttempts: 1,
        outcomes: { passed: 'c' },
      },
      {
        id: 'c',
        type: 'face_compare',
        sourceA: { source: 'providedData', providedDataKey: 'photo' },
        sourceB: { source: 'faceScan' },
        outcomes: { match: 'e' },
      },
      {
        id: 'e',
        type: 'enter_email',
        prompt: 'Your email, please.',
        outcomes: { emailEntered: 'o' },
      },
      {
        id: 'o',
        type: 'two_factor_email',
        otpLength: 4,
        expirySeconds: 3600,
        maxAttempts: 10,
        resendAfterSeconds: 0,
        emailTemplate: 'Your code is {{code}}.',
        outcomes: { verified: 's' },
      },
      {
        id: 's',
        type: 'two_factor_sms',
        otpLength: 8,
        expirySeconds: 60,
        smsTemplate: '{{code}} is your code',
        outcomes: { verified: 'v' },
      },
      {
        id: 'v',
        type: 'data_validation',
        validation: { field: 'extractedData.dateOfBirth', action: 'minAge', value: 18 },
        outcomes: [
          { id: 'adult', condition: 'passed', targetNodeId: 'm' },
          { id: 'other', targetNodeId: 'end' },
        ],
      },
      {
        id: 'm',
        type: 'data_validation',
        validation: {
          field: 'providedData.lastName',
          action: 'sameAs',
          value: 'extractedData.lastName',
        },
        outcomes: [{ id: 'same', condition: '', targetNodeId: 'bye' }],
      },
      {
        id: 'bye',
        type: 'conversation',
        prompt: 'x'.repeat(2000),
        doesNotRequireReply: true,
        outcomes: [{ id: 'done', condition: '', targetNodeId: 'end' }],
      },
      { id: 'end', type: 'end' },
    ];
    expect(validateFlow(flow)).toEqual([]);
  });
});
