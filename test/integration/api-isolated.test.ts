import { useLocalApi } from '../support/local.js';
import { apiSuite } from './api-suite.js';
import { hardeningSuite } from './hardening-suite.js';

/**
 * The same tests with every route in a process of its own, as Lambda runs them: no memory is shared
 * between routes, so a cache or a remembered state in one route cannot hide what the store lost.
 */
const server = useLocalApi({ isolated: true });
apiSuite(server);
hardeningSuite(server);
