// The managed agent's brain alone: a pure step function, tested by tables of (behaviour,
// inputs) -> actions; and the behaviour checks that refuse bad rules naming the field.
import { describe, expect, it } from 'vitest';
import { INITIAL_BRAIN, step, type BrainAction, type BrainContext, type BrainInput, type BrainState } from '../resources/agents/brain.ts';
import { checkBehaviour, defaultBehaviour, groupCount, type Behaviour, type BehaviourInputBody } from '../resources/agents/behaviour.ts';
import { render, templateRefs, EMPTY_SCOPE } from '../resources/agents/templates.ts';
import { ApiError } from '../core/errors.ts';

const TOOLS = new Set(['get_reservation', 'echo']);

function behaviour(input: BehaviourInputBody): Behaviour {
  return checkBehaviour(input, 'ko', TOOLS);
}

function ctx(b: Behaviour, extra: Partial<BrainContext> = {}): BrainContext {
  return { behaviour: b, greet: true, vars: { name: '김민수' }, knowledge: null, goodbye: 'bye', whisper: (u) => `brief: ${u}`, ...extra };
}

/** Runs inputs from the start; returns every action (as short strings) and the last state. */
function run(c: BrainContext, inputs: BrainInput[]): { said: string[]; state: BrainState; actions: BrainAction[] } {
  let state = INITIAL_BRAIN;
  const actions: BrainAction[] = [];
  for (const input of [{ kind: 'start' } as BrainInput, ...inputs]) {
    const r = step(c, state, input);
    state = r.state;
    actions.push(...r.actions);
  }
  const said = actions.map((a) => {
    switch (a.type) {
      case 'say':
        return `say:${a.text}`;
      case 'tool':
        return `tool:${a.name}:${JSON.stringify(a.arguments)}`;
      case 'optOut':
        return `optOut:${a.channel}`;
      case 'transfer':
        return `transfer:${a.to}:${a.mode}`;
      case 'hangup':
        return 'hangup';
    }
  });
  return { said, state, actions };
}

const heard = (text: string): BrainInput => ({ kind: 'heard', text });

describe('agent brain', () => {
  it('with the default behaviour greets and answers every line with the fallback', () => {
    const d = defaultBehaviour('ko');
    const r = run(ctx(d), [heard('여보세요'), heard('누구세요')]);
    expect(r.said).toEqual([`say:${d.greeting}`, `say:${d.fallback}`, `say:${d.fallback}`]);
    expect(r.state.turns).toBe(2);
    expect(defaultBehaviour('en').greeting).toMatch(/^Hello/);
  });

  it('does not greet when the agent\'s greeting is off', () => {
    expect(run(ctx(defaultBehaviour('ko'), { greet: false }), []).said).toEqual([]);
  });

  it.each<[string, BehaviourInputBody, BrainInput[], string[]]>([
    [
      'first matching rule wins, case-insensitively, with capture groups',
      { greeting: 'Hi {{var.name}}', rules: [{ heard: 'book (\\w+) at (\\d+)', say: '{{1}} at {{2}}, {{var.name}}' }, { heard: 'book', say: 'never' }] },
      [heard('BOOK table at 7')],
      ['say:Hi 김민수', 'say:table at 7, 김민수'],
    ],
    [
      'no match: the fallback',
      { rules: [{ heard: '^yes$', say: 'ok' }], fallback: 'pardon?' },
      [heard('maybe')],
      [`say:${defaultBehaviour('ko').greeting}`, 'say:pardon?'],
    ],
    [
      'say, optOut then hangup in that order',
      { greeting: 'g', rules: [{ heard: 'stop', say: 'removed', optOut: 'call', hangup: true }] },
      [heard('please stop calling'), heard('ignored after hangup')],
      ['say:g', 'say:removed', 'optOut:call', 'hangup'],
    ],
    [
      'transfer after say; blind by default',
      { greeting: 'g', rules: [{ heard: 'human', say: 'connecting', transfer: { to: '010-1234-5678' } }] },
      [heard('a human please')],
      ['say:g', 'say:connecting', 'transfer:010-1234-5678:blind'],
    ],
    [
      'a missing group and an unknown variable render empty',
      { greeting: 'g', rules: [{ heard: 'a(b)?', say: '[{{1}}][{{var.none}}]' }] },
      [heard('a')],
      ['say:g', 'say:[][]'],
    ],
  ])('%s', (_, input, inputs, expected) => {
    expect(run(ctx(behaviour(input)), inputs).said).toEqual(expected);
  });

  it('calls the tool with rendered arguments, then says the rule with the result', () => {
    const b = behaviour({
      greeting: 'g',
      rules: [{ heard: 'reservation (\\d+)', tool: { name: 'get_reservation', arguments: { id: '{{1}}', nested: { who: '{{var.name}}', n: 3 } } }, say: '{{tool.date}} for {{tool.guests[0]}} ({{tool}})' }],
    });
    const c = ctx(b);
    let r = step(c, INITIAL_BRAIN, heard('my reservation 42'));
    expect(r.actions).toEqual([{ type: 'tool', name: 'get_reservation', arguments: { id: '42', nested: { who: '김민수', n: 3 } }, fired: { kind: 'rule', index: 0, heard: 'reservation (\\d+)' } }]);
    // While the tool runs, the agent hears nothing.
    expect(step(c, r.state, heard('hello?')).actions).toEqual([]);
    r = step(c, r.state, { kind: 'tool', ok: true, text: '{"date":"5월 3일","guests":["Kim"]}' });
    expect(r.actions.map((a) => (a.type === 'say' ? a.text : a.type))).toEqual(['5월 3일 for Kim ({"date":"5월 3일","guests":["Kim"]})']);
    expect(r.state.pending).toBeNull();
  });

  it('a failing tool (failureMode continue) says the fallback and skips the rest of the rule', () => {
    const b = behaviour({ greeting: 'g', fallback: 'sorry', rules: [{ heard: 'x', tool: { name: 'echo' }, say: 'got {{tool}}', hangup: true }] });
    const c = ctx(b);
    const first = step(c, INITIAL_BRAIN, heard('x'));
    const r = step(c, first.state, { kind: 'tool', ok: false, error: 'TIMEOUT' });
    expect(r.actions).toEqual([{ type: 'say', text: 'sorry', fired: { kind: 'toolFailed', index: 0, error: 'TIMEOUT' } }]);
    expect(r.state.done).toBe(false);
  });

  it('after maxTurns it says goodbye and hangs up', () => {
    const b = behaviour({ greeting: 'g', rules: [{ heard: '.', say: 'ok' }], maxTurns: 2 });
    const r = run(ctx(b), [heard('1'), heard('2'), heard('3')]);
    expect(r.said).toEqual(['say:g', 'say:ok', 'say:ok', 'say:bye', 'hangup']);
    expect(r.state).toMatchObject({ turns: 2, done: true });
  });

  it('a transfer waits for its outcome: connected ends the agent\'s part, failed returns to it', () => {
    const b = behaviour({ greeting: 'g', rules: [{ heard: 'human', transfer: { to: 'sip:desk@pbx.example.com', mode: 'warm' } }, { heard: '.', say: 'back' }] });
    const c = ctx(b);
    let s = step(c, INITIAL_BRAIN, heard('human')).state;
    expect(s.transferring).toBe(true);
    expect(step(c, s, heard('hello')).actions).toEqual([]);
    const failed = step(c, s, { kind: 'transferEnded', connected: false }).state;
    expect(step(c, failed, heard('hello')).actions.map((a) => a.type)).toEqual(['say']);
    s = step(c, s, { kind: 'transferEnded', connected: true }).state;
    expect(s.done).toBe(true);
    expect(step(c, s, heard('hello')).actions).toEqual([]);
  });

  it('a warm transfer carries its whisper (rendered like say, else the default briefing); a blind one none', () => {
    const b = behaviour({
      greeting: 'g',
      rules: [
        { heard: 'order (\\d+)', tool: { name: 'echo' }, transfer: { to: '010-3000-0099', mode: 'warm', whisper: 'order {{1}}: {{tool.status}} for {{var.name}}' } },
        { heard: 'human', say: 'connecting', transfer: { to: '010-3000-0099', mode: 'warm' } },
        { heard: 'desk', transfer: { to: '010-3000-0099' } },
      ],
    });
    const c = ctx(b);
    const warm = step(c, INITIAL_BRAIN, heard('a human please'));
    expect(warm.actions.at(-1)).toMatchObject({ type: 'transfer', mode: 'warm', whisper: 'brief: a human please' });
    const pending = step(c, INITIAL_BRAIN, heard('order 77')).state;
    const done = step(c, pending, { kind: 'tool', ok: true, text: '{"status":"shipped"}' });
    expect(done.actions).toEqual([{ type: 'transfer', to: '010-3000-0099', mode: 'warm', whisper: 'order 77: shipped for 김민수', fired: { kind: 'rule', index: 0, heard: 'order (\\d+)' } }]);
    expect(step(c, INITIAL_BRAIN, heard('desk')).actions).toMatchObject([{ type: 'transfer', mode: 'blind', whisper: null }]);
  });

  it('{{knowledge}} asks the knowledge search with the utterance, only when knowledge is on', () => {
    const b = behaviour({ greeting: 'g', rules: [], fallback: '{{knowledge}}' });
    const asked: string[] = [];
    const on = ctx(b, { knowledge: (q) => (asked.push(q), `chunk for ${q}`) });
    expect(run(on, [heard('refund')]).said).toEqual(['say:g', 'say:chunk for refund']);
    expect(asked).toEqual(['refund']);
    expect(run(ctx(b), [heard('refund')]).said).toEqual(['say:g', 'say:']);
  });
});

describe('agent behaviour checks', () => {
  const refused = (input: BehaviourInputBody, tools: ReadonlySet<string> = TOOLS): { path: string; message: string } => {
    try {
      checkBehaviour(input, 'ko', tools);
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      const err = e as ApiError;
      expect(err.status).toBe(400);
      return (err.extra.errors as { path: string; message: string }[])[0]!;
    }
    throw new Error('accepted');
  };

  it.each<[string, BehaviourInputBody, string]>([
    ['a pattern that does not compile', { rules: [{ heard: '(unclosed', say: 'x' }] }, 'rules.0.heard'],
    ['nested quantifiers', { rules: [{ heard: '(a+)+', say: 'x' }] }, 'rules.0.heard'],
    ['a tool not among the allowed tools', { rules: [{ heard: 'x', tool: { name: 'drop_tables' } }] }, 'rules[0].tool.name'],
    ['a transfer to no number', { rules: [{ heard: 'x', transfer: { to: 'reception' } }] }, 'rules[0].transfer.to'],
    ['a malformed SIP URI', { rules: [{ heard: 'x', transfer: { to: 'sip:' } }] }, 'rules[0].transfer.to'],
    ['a group beyond the pattern\'s', { rules: [{ heard: '(a)', say: '{{2}}' }] }, 'rules[0].say'],
    ['{{tool}} without a tool', { rules: [{ heard: 'a', say: '{{tool.x}}' }] }, 'rules[0].say'],
    ['{{tool}} in the arguments', { rules: [{ heard: 'a', tool: { name: 'echo', arguments: { text: ['{{tool}}'] } } }] }, 'rules[0].tool.arguments.text[0]'],
    ['an unknown reference', { rules: [{ heard: 'a', say: '{{name}}' }] }, 'rules[0].say'],
    ['{{knowledge}} in the greeting', { greeting: '{{knowledge}}', rules: [] }, 'greeting'],
    ['a rule that does nothing', { rules: [{ heard: 'a' }] }, 'rules[0]'],
    ['transfer with hangup', { rules: [{ heard: 'a', transfer: { to: '01012345678' }, hangup: true }] }, 'rules[0].hangup'],
    ['a whisper in a blind transfer', { rules: [{ heard: 'a', transfer: { to: '01012345678', whisper: 'hi' } }] }, 'rules[0].transfer.whisper'],
    ['a whisper naming nothing', { rules: [{ heard: 'a', transfer: { to: '01012345678', mode: 'warm', whisper: '{{2}}' } }] }, 'rules[0].transfer.whisper'],
  ])('refuses %s', (_, input, path) => {
    expect(refused(input).path).toBe(path);
  });

  it('names the allowed tools, or says there are none', () => {
    expect(refused({ rules: [{ heard: 'x', tool: { name: 'nope' } }] }).message).toContain('allowed: echo, get_reservation');
    expect(refused({ rules: [{ heard: 'x', tool: { name: 'nope' } }] }, new Set()).message).toContain('no MCP binding');
  });

  it('fills defaults and normalises the rule shape', () => {
    const b = checkBehaviour({ rules: [{ heard: 'a', transfer: { to: ' 01012345678 ' } }] }, 'en', TOOLS);
    expect(b).toEqual({
      greeting: 'Hello, how can I help you?',
      rules: [{ heard: 'a', say: null, tool: null, transfer: { to: '01012345678', mode: 'blind', whisper: null }, optOut: null, hangup: false }],
      fallback: defaultBehaviour('en').fallback,
      maxTurns: 20,
    });
  });

  it('counts capture groups and lists template references', () => {
    expect(groupCount('a(b)(?:c)(d(e))')).toBe(3);
    expect(templateRefs('{{ 1 }} {{tool.a[0]}} {{var.x}} {{knowledge}} {{x y}}').map((r) => r.kind)).toEqual(['group', 'tool', 'var', 'knowledge', 'unknown']);
    expect(render('plain', EMPTY_SCOPE)).toBe('plain');
  });
});
