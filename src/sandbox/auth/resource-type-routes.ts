/**
 * auth/v1 resource types: list with filters, fetch, and create with nested `children` (a whole
 * subtree in one request, validated completely before anything is stored). Type codes are
 * unique within a domain (409 otherwise), which keeps `domain/type/action` codes unambiguous.
 */
import { HttpError, type SandboxRoute } from '../core/types';
import { PATH_PREFIX, mustRead, notFound, paged, permit, type AuthDeps } from './deps';
import { Input, bodyOf, queryString } from './input';
import { AUTH_DOMAIN_CODE } from './seed-data';
import { typeView } from './views';

interface TypeDraft {
  name: string;
  code: string;
  children: TypeDraft[];
}

function readDraft(input: Input): TypeDraft {
  const name = input.string('name', { nonEmpty: true });
  const code = input.code('code');
  const children = input.has('children') ? input.children('children').map(readDraft) : [];
  return { name, code, children };
}

/** Every code of the draft tree with its body path, for the uniqueness check. */
function draftCodes(draft: TypeDraft, path: string, out: [string, string][]): [string, string][] {
  out.push([draft.code, `${path}.code`]);
  draft.children.forEach((c, i) => draftCodes(c, `${path}.children[${i}]`, out));
  return out;
}

export function resourceTypeRoutes(deps: AuthDeps): SandboxRoute[] {
  const { store, ctx } = deps;
  return [
    {
      method: 'GET',
      template: `${PATH_PREFIX}/resource-types`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['resource-type', 'read']);
        const domainId = queryString(req, 'domainId');
        const code = queryString(req, 'code');
        const parentId = queryString(req, 'parentId');
        const items = [...store.types.values()].filter(
          (t) => (domainId === null || t.domainId === domainId) && (code === null || t.code === code) && (parentId === null || t.parentId === parentId),
        );
        return { status: 200, json: paged(req, items).map((t) => typeView(store, t)) };
      },
    },
    {
      method: 'GET',
      template: `${PATH_PREFIX}/resource-types/{id}`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['resource-type', 'read']);
        const id = req.params['id'] ?? '';
        const type = store.types.get(id);
        if (!type) throw notFound('resource type', id);
        return { status: 200, json: typeView(store, type) };
      },
    },
    {
      method: 'POST',
      template: `${PATH_PREFIX}/resource-types`,
      auth: 'bearer',
      handle(req) {
        // The column's `read` pairs are checked on the referenced records (readable references), below.
        const caller = permit(deps, req, ['resource-type', 'create']);
        const body = new Input(bodyOf(req));
        const domainIdIn = body.optString('domainId');
        const parentIdIn = body.optString('parentId');
        const draft = readDraft(body.child('resourceType'));

        let domainId: string;
        let depth = 0;
        if (parentIdIn !== null) {
          const parent = store.types.get(parentIdIn);
          if (!parent) throw notFound('parentId: resource type', parentIdIn);
          mustRead(deps, caller, 'resource-type', parent.id, 'parentId');
          if (domainIdIn !== null && domainIdIn !== parent.domainId) throw new HttpError(400, "domainId: must be the parent type's domain");
          domainId = parent.domainId;
          depth = parent.depth + 1;
        } else {
          if (domainIdIn === null) throw new HttpError(400, 'domainId: must not be null when parentId is null');
          domainId = domainIdIn;
          // No parent to check: `read` on resource types is needed type-wide.
          deps.authz.require(caller, AUTH_DOMAIN_CODE, 'resource-type', 'read');
        }
        const domain = store.domains.get(domainId);
        if (!domain) throw notFound('domainId: domain', domainId);
        mustRead(deps, caller, 'domain', domain.id, 'domainId');

        const seen = new Set<string>();
        for (const [code, field] of draftCodes(draft, 'resourceType', [])) {
          if (seen.has(code) || store.typeByCode(domainId, code)) throw new HttpError(409, `${field}: code '${code}' already exists in domain '${domain.code}'`);
          seen.add(code);
        }

        const now = ctx.clock.now();
        const create = (d: TypeDraft, parentId: string | null, level: number): string => {
          const id = ctx.uuid();
          store.addType({ id, domainId, name: d.name, code: d.code, parentId, depth: level, childrenIds: [], createdBy: caller.identityId, createdAt: now, updatedAt: now });
          for (const child of d.children) create(child, id, level + 1);
          return id;
        };
        const id = create(draft, parentIdIn, depth);
        const created = store.types.get(id);
        if (!created) throw new HttpError(500, 'resource type vanished');
        return { status: 200, json: typeView(store, created) };
      },
    },
  ];
}
