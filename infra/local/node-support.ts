/**
 * Import this first (the local runtime, the scripts, the tests' setup): it turns off the AWS SDK's
 * NodeVersionSupportWarning, and nothing else.
 *
 * On Node 20 the SDK prints it (nine lines, once a process, when the first client is built): its
 * versions published after early January 2027 will need Node 22 or later. The SDK pinned here runs
 * on Node 20, and Lambda runs nodejs24.x, where the SDK says nothing; on a laptop or in CI on Node 20
 * it would be the first thing a newcomer reads, before the product's own lines, at every start and in
 * every test run. The SDK's own switch is an environment variable it reads when a client is built;
 * setting it here also reaches the processes started from this one (route processes, `npm start` in
 * the tests). Every other warning still shows. To see this one again, set the variable to `false`.
 * The README's "Node versions" says what is supported and why.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
